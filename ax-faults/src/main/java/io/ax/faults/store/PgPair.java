package io.ax.faults.store;

import io.ax.faults.Log;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The run's own PostgreSQL primary and streaming standby, on two fixed free ports ({@code a} and {@code b}) of
 * 127.0.0.1, their data in the run's work folder: what the nodes' multi-host URL lists. A failover stops the primary
 * at once ({@code pg_ctl -m immediate}, a crash) and promotes the standby; {@link #reform} then gives the promoted
 * primary a new standby on the freed port ({@code pg_basebackup}), so the next failover goes the other way. The data
 * folder of every stopped primary is kept aside, as it was when it stopped, for {@link TimelineReader} to read what
 * it had and the new primary lost. One fault acts on the pair at a time (the callers serialise on it); the runner's
 * progress lines tell each step.
 *
 * <p>The servers' programs run through {@link PgCommands}.
 */
public final class PgPair implements AutoCloseable {

    private static final Duration TIMEOUT = PgCommands.TIMEOUT;
    private static final Duration POLL = Duration.ofMillis(50);

    private final PgCommands pg;
    private final Path root;
    private final String database;
    private final boolean synchronous;
    private final Server a;
    private final Server b;
    private Server primary;
    private Server standby;
    private int stoppedPrimaries;

    /** Held by the fault acting on the pair: one failover at a time, tryLock only. */
    private final ReentrantLock claim = new ReentrantLock();

    /**
     * Creates the primary (with the run's {@code database}) and its standby, and waits until the standby streams
     * (synchronously, when asked).
     *
     * @param root an empty folder for both servers' data; user {@code postgres} must be able to reach it
     */
    public static PgPair start(Path root, String database, boolean synchronous) {
        PgPair pair = new PgPair(root.toAbsolutePath(), database, synchronous);
        try {
            pair.create();
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
        return pair;
    }

    private PgPair(Path root, String database, boolean synchronous) {
        this.pg = new PgCommands(root);
        this.root = root;
        this.database = database;
        this.synchronous = synchronous;
        this.a = new Server("a", root.resolve("a"), PgCommands.freePort());
        this.b = new Server("b", root.resolve("b"), PgCommands.freePort());
    }

    /** Whether the pair's servers can be run here; the reason when not, else null. */
    public static String unavailable() {
        return PgCommands.unavailable();
    }

    /** Claims the pair for one fault; false when another fault acts on it. */
    public boolean tryClaim() {
        return claim.tryLock();
    }

    public void release() {
        claim.unlock();
    }

    /** Both servers' ports, in the order the nodes' URL lists them. */
    public List<Integer> ports() {
        return List.of(a.port, b.port);
    }

    public boolean synchronous() {
        return synchronous;
    }

    public synchronized int primaryPort() {
        return primary.port;
    }

    /** The standby's port, or -1 while there is none (between a failover and {@link #reform}). */
    public synchronized int standbyPort() {
        return standby == null ? -1 : standby.port;
    }

    /** pgjdbc's multi-host URL over both servers, to whichever is primary (the runner's own connections). */
    public String url() {
        return multiHostUrl(ports(), database, "");
    }

    /**
     * pgjdbc's multi-host URL over {@code ports} that connects to the one that is primary, rechecking a host's role
     * every second once it failed.
     */
    public static String multiHostUrl(List<Integer> ports, String database, String more) {
        StringBuilder hosts = new StringBuilder();
        for (int port : ports) {
            hosts.append(hosts.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
        }
        return "jdbc:postgresql://" + hosts + "/" + database + "?targetServerType=primary&hostRecheckSeconds=1" + more;
    }

    /** What a failover did: which server went, which took over, and when, on the database's clock. */
    public record Failover(
            int oldPort, int newPort, Path oldData, long replayedUntilUs, long killedUs, long promotedUs) {}

    /**
     * Fails over to a standby that has every acknowledged commit: the standby is made synchronous first (when the
     * pair is not), so a commit returns only once the standby has it; then the primary is stopped at once and the
     * standby promoted. Returns once the promoted server takes writes.
     */
    public synchronized Failover failover() {
        requireStandby();
        if (!synchronous) {
            setSynchronous(primary, true);
            awaitSync();
        }
        return killAndPromote();
    }

    /**
     * Fails over to a standby that missed the last commits: its WAL receiver stops (its {@code primary_conninfo}
     * emptied and reloaded), the primary writes on alone for {@code behind}, then is stopped at once and the standby
     * promoted. What the primary committed meanwhile is lost.
     */
    public synchronized Failover laggingFailover(Duration behind) throws InterruptedException {
        requireStandby();
        if (synchronous) {
            // a synchronous primary would hold every commit while its standby is away: no lag, only a stall
            setSynchronous(primary, false);
        }
        sql(standby, "ALTER SYSTEM SET primary_conninfo = ''");
        sql(standby, "SELECT pg_reload_conf()");
        Server p = primary;
        await("no walsender left on " + p, () -> "0".equals(sql(p, "SELECT count(*) FROM pg_stat_replication")));
        Log.info("pair: standby %s stopped streaming; %s writes on alone for %d ms", standby, p, behind.toMillis());
        Thread.sleep(behind.toMillis()); // the point: the primary commits what the standby never gets
        return killAndPromote();
    }

    private Failover killAndPromote() {
        Server old = primary;
        Server next = standby;
        pg.pgCtl(old.dir, "-m", "immediate", "stop");
        old.running = false;
        long killed = nowUs(next);
        String replayed = sql(
                next,
                "SELECT COALESCE(CAST(EXTRACT(EPOCH FROM pg_last_xact_replay_timestamp()) * 1000000 AS BIGINT), 0)");
        pg.pgCtl(next.dir, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "promote");
        await("promoted " + next + " out of recovery", () -> "f".equals(sql(next, "SELECT pg_is_in_recovery()")));
        // a promoted primary waits for no standby until it has one again
        setSynchronous(next, false);
        long promoted = nowUs(next);
        primary = next;
        standby = null;
        Path aside = root.resolve("stopped-" + (++stoppedPrimaries) + "-" + old.name);
        pg.move(old.dir, aside);
        Log.info("pair: %s stopped (-m immediate), %s promoted; the old data kept in %s", old, next, aside);
        return new Failover(old.port, next.port, aside, Long.parseLong(replayed), killed, promoted);
    }

    /**
     * Starts the old primary's data again, as the primary it was, on its port: two primaries, as when nothing fenced
     * the old one. Its data folder stays where {@link #failover} put it aside.
     */
    public synchronized void startOldPrimary(Failover f) {
        Server old = new Server("old-" + f.oldPort(), f.oldData(), f.oldPort());
        pg.pgCtl(old.dir, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "-l", f.oldData() + ".log", "start");
        Log.info("pair: the old primary is back on port %d, beside %s", f.oldPort(), primary);
    }

    /** The last heartbeat (AX's {@code ax_node}) of {@code node} on the server of {@code port}; 0 when none. */
    public long lastHeartbeat(int port, String node) {
        return Long.parseLong(pg.psql(
                port,
                database,
                "SELECT COALESCE(MAX(heartbeat_us), 0) FROM ax_node WHERE node_id = '" + node.replace("'", "") + "'"));
    }

    /** Waits up to {@code bound} for a heartbeat of {@code node} later than {@code after} on the server of a port. */
    public boolean awaitHeartbeat(int port, String node, long after, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            if (lastHeartbeat(port, node) > after) {
                return true;
            }
            LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
        }
        return false;
    }

    /** Stops the old primary {@link #startOldPrimary} started, at once: fenced, too late. */
    public synchronized void stopOldPrimary(Failover f) {
        pg.pgCtl(f.oldData(), "-m", "immediate", "stop");
        Log.info("pair: the old primary on port %d stopped again", f.oldPort());
    }

    /**
     * Gives the primary a new standby on the free port, from a base backup of it, and waits until it streams
     * (synchronously, when the pair is). The pair can fail over again afterwards.
     */
    public synchronized void reform() {
        if (standby != null) {
            return;
        }
        Server next = primary == a ? b : a;
        pg.basebackup(primary.port, next.dir);
        PgCommands.appendConfig(
                next.dir, List.of("port = " + next.port, "primary_conninfo = '" + conninfo(primary.port) + "'"));
        pg.pgCtl(next.dir, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "-l", next.dir + ".log", "start");
        next.running = true;
        standby = next;
        Server p = primary;
        await("standby " + next + " streaming", () -> "1".equals(sql(p, "SELECT count(*) FROM pg_stat_replication")));
        if (synchronous) {
            setSynchronous(primary, true);
            awaitSync();
        }
        Log.info("pair: re-formed, %s primary, %s standby", primary, standby);
    }

    private void create() {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + root, e);
        }
        pg.ownRoot();
        pg.initdb(a.dir);
        PgCommands.appendConfig(
                a.dir,
                List.of(
                        "listen_addresses = '127.0.0.1'",
                        "port = " + a.port,
                        "unix_socket_directories = '" + root + "'",
                        "wal_level = replica",
                        "max_wal_senders = 5",
                        "hot_standby = on",
                        // a scratch pair: durability against a power cut is not what a run tests
                        "fsync = off",
                        "full_page_writes = off",
                        "shared_buffers = 32MB",
                        "max_connections = 120",
                        "wal_receiver_status_interval = 1s",
                        "wal_retrieve_retry_interval = 500ms",
                        "logging_collector = off"));
        pg.pgCtl(a.dir, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "-l", a.dir + ".log", "start");
        a.running = true;
        primary = a;
        pg.psql(a.port, "postgres", "CREATE DATABASE " + database);
        reform();
    }

    private void requireStandby() {
        if (standby == null) {
            throw new IllegalStateException("the pair has no standby to fail over to (primary " + primary + ")");
        }
    }

    private void setSynchronous(Server server, boolean on) {
        sql(server, "ALTER SYSTEM SET synchronous_standby_names = '" + (on ? "*" : "") + "'");
        sql(server, "SELECT pg_reload_conf()");
    }

    private void awaitSync() {
        Server p = primary;
        await(
                "standby of " + p + " synchronous",
                () -> "sync".equals(sql(p, "SELECT COALESCE(MAX(sync_state), '') FROM pg_stat_replication")));
    }

    private long nowUs(Server server) {
        return Long.parseLong(sql(server, "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)"));
    }

    private static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within " + TIMEOUT.toSeconds() + " s: " + what);
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    private String sql(Server server, String sql) {
        return pg.psql(server.port, database, sql);
    }

    /**
     * Starts the data folder of a stopped server on a free port, for reading: it recovers from its crash alone (no
     * standby signal, no one streams from it) and every session is read-only. Stop it with {@link #stopStandAlone}.
     *
     * @return its port
     */
    int startStandAlone(Path data) {
        int port = PgCommands.freePort();
        try {
            Files.deleteIfExists(data.resolve("standby.signal"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pg.pgCtl(
                data,
                "-w",
                "-t",
                Long.toString(TIMEOUT.toSeconds()),
                "-l",
                data + ".read.log",
                "-o",
                "-p " + port + " -c default_transaction_read_only=on -c synchronous_standby_names=''",
                "start");
        return port;
    }

    void stopStandAlone(Path data) {
        pg.pgCtl(data, "-m", "fast", "stop");
    }

    String database() {
        return database;
    }

    /**
     * Deletes the servers' data folders (the current pair's and those of stopped primaries), keeping their logs: once
     * the lost rows are read and the tables copied to the witness, nothing reads them. Call after {@link #close()}.
     */
    public void deleteData() throws IOException {
        try (Stream<Path> children = Files.list(root)) {
            for (Path dir : children.filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** Stops whatever of the pair still runs; the data stays in the work folder. */
    @Override
    public synchronized void close() {
        for (Server s : new Server[] {a, b}) {
            if (s.running) {
                try {
                    pg.pgCtl(s.dir, "-m", "immediate", "stop");
                } catch (RuntimeException e) {
                    Log.info("pair: %s did not stop: %s", s, e.getMessage());
                }
                s.running = false;
            }
        }
    }

    private static String conninfo(int port) {
        return "host=127.0.0.1 port=" + port + " user=postgres application_name=ax-faults-standby";
    }

    @Override
    public String toString() {
        return "pair[primary " + primary + ", standby " + (standby == null ? "none" : standby) + "]";
    }

    /** One server of the pair: its data folder and port; {@code running} as far as the pair knows. */
    private static final class Server {
        final String name;
        final Path dir;
        final int port;
        boolean running;

        Server(String name, Path dir, int port) {
            this.name = name;
            this.dir = dir;
            this.port = port;
        }

        @Override
        public String toString() {
            return name + ":" + port;
        }
    }
}
