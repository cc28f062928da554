package io.ax.test.pg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * A private PostgreSQL primary and a streaming standby on free ports of 127.0.0.1, for tests of what a failover does
 * to AX: {@link #failover()} stops the primary at once ({@code pg_ctl -m immediate}) and promotes the standby; {@link
 * #detachStandby()} first makes the standby miss every later commit, so that the failover loses them; {@link
 * #startOldPrimary()} brings the stopped server back as a primary, beside the promoted one (what an HA set-up without
 * fencing lets happen). {@link #jdbcUrl} gives pgjdbc's multi-host URL that finds whichever is primary.
 *
 * <p>The servers run from {@code /usr/lib/postgresql/15/bin} (or {@code AX_TEST_PG_BIN}) with their data in a scratch
 * folder under {@code target/pg-pair}; {@code initdb} refuses root, so under root they run as user {@code postgres}.
 * Without the binaries the test is skipped saying why, or failed under {@code AX_TEST_SERVICES=required}. The servers
 * are stopped by {@link #close()} and, at the latest, when the JVM exits. Not thread-safe: one test drives it.
 */
public final class PostgresPair implements AutoCloseable {

    /** How the primary waits for the standby at commit. */
    public enum Replication {
        /** A commit returns once the standby has flushed it: a failover loses nothing. */
        SYNCHRONOUS,
        /** A commit returns at once: a failover loses what the standby had not received. */
        ASYNCHRONOUS
    }

    /** The database the pair creates for the test, beside {@code postgres}. */
    public static final String DATABASE = "ax";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Path DEFAULT_BIN = Path.of("/usr/lib/postgresql/15/bin");

    private final Path bin;
    private final Path root;
    private final Replication replication;
    private final boolean asPostgres;
    private final Server first;
    private final Server second;
    private final Thread stopAtExit;
    private final Duration startTime;
    private Server primary;
    private Server standby;

    private PostgresPair(Path bin, Path root, Replication replication) {
        this.bin = bin;
        this.root = root;
        this.replication = replication;
        this.asPostgres = "root".equals(System.getProperty("user.name"));
        this.first = new Server("a", root.resolve("a"), freePort());
        this.second = new Server("b", root.resolve("b"), freePort());
        this.stopAtExit = new Thread(this::stopAll, "ax-test-pg-pair-stop");
        Runtime.getRuntime().addShutdownHook(stopAtExit);
        long started = System.nanoTime();
        try {
            create();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.startTime = Duration.ofNanos(System.nanoTime() - started);
    }

    /**
     * Creates and starts a primary and its standby (about 2 s: {@code initdb}, {@code pg_basebackup}), with a
     * database {@link #DATABASE} replicated to the standby. Skips the calling test when the binaries are missing, or
     * fails it under {@code AX_TEST_SERVICES=required}.
     *
     * @param replication synchronous or asynchronous streaming
     * @return the running pair; close it
     */
    public static PostgresPair start(Replication replication) {
        Path bin = binaries();
        String missing = missing(bin);
        if (missing != null) {
            String message = "no PostgreSQL server binaries: " + missing
                    + " (apt-get install -y postgresql, or set AX_TEST_PG_BIN)";
            if ("required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"))) {
                throw new IllegalStateException(message + " and AX_TEST_SERVICES=required");
            }
            Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        }
        Path root;
        try {
            Path parent = Path.of("target", "pg-pair").toAbsolutePath();
            Files.createDirectories(parent);
            root = Files.createTempDirectory(parent, "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch folder under target/pg-pair", e);
        }
        return new PostgresPair(bin, root, replication);
    }

    /** How long {@link #start} took to create and start both servers. */
    public Duration startTime() {
        return startTime;
    }

    public Replication replication() {
        return replication;
    }

    /** The port of the server that is primary now (after {@link #failover()}, the promoted one). */
    public int primaryPort() {
        return primary.port;
    }

    /** The port of the server that was the standby at start (the one {@link #failover()} promotes). */
    public int standbyPort() {
        return second.port;
    }

    /** The port of the server that was the primary at start (the one {@link #failover()} stops). */
    public int firstPrimaryPort() {
        return first.port;
    }

    /**
     * pgjdbc's multi-host URL over both servers, the first primary first, that connects to whichever is primary.
     *
     * @param hostRecheck how long pgjdbc trusts what it learned of a host's role ({@code hostRecheckSeconds})
     * @return {@code jdbc:postgresql://127.0.0.1:P1,127.0.0.1:P2/ax?targetServerType=primary&hostRecheckSeconds=N}
     */
    public String jdbcUrl(Duration hostRecheck) {
        return "jdbc:postgresql://127.0.0.1:" + first.port + ",127.0.0.1:" + second.port + "/" + DATABASE
                + "?targetServerType=primary&hostRecheckSeconds=" + Math.max(1, hostRecheck.toSeconds())
                + "&connectTimeout=2&socketTimeout=10";
    }

    /** A URL to one server only, whatever its role: for a check that must read a given server. */
    public String jdbcUrl(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?connectTimeout=2&socketTimeout=10";
    }

    /** The user to connect as (trust authentication, no password). */
    public String user() {
        return "postgres";
    }

    /**
     * Runs SQL on the server of a port with {@code psql} and returns its output, one line per row, columns separated
     * by {@code |}.
     */
    public String sql(int port, String sql) {
        return run(
                        false,
                        List.of(
                                bin.resolve("psql").toString(),
                                "-h",
                                "127.0.0.1",
                                "-p",
                                Integer.toString(port),
                                "-U",
                                "postgres",
                                "-d",
                                DATABASE,
                                "-X",
                                "-A",
                                "-t",
                                "-v",
                                "ON_ERROR_STOP=1",
                                "-c",
                                sql))
                .strip();
    }

    /** Waits until the standby has replayed everything the primary has written so far. */
    public void awaitStandbyCaughtUp() {
        String target = sql(primary.port, "SELECT pg_current_wal_lsn()");
        Awaitility.await("standby on port " + standby.port + " replayed up to " + target)
                .atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() ->
                        "t".equals(sql(standby.port, "SELECT pg_last_wal_replay_lsn() >= '" + target + "'::pg_lsn")));
    }

    /**
     * Makes the standby miss every commit from now on, as a standby that fell behind does: its WAL receiver is told to
     * stop ({@code primary_conninfo} emptied and reloaded) and the call returns once the primary has no walsender
     * left. Under {@link Replication#SYNCHRONOUS} the primary's commits then wait until {@link #reattachStandby()} or
     * {@link #failover()}, so the primary is first made asynchronous: a lagging standby exists only in asynchronous
     * replication.
     */
    public void detachStandby() {
        if (replication == Replication.SYNCHRONOUS) {
            sql(primary.port, "ALTER SYSTEM SET synchronous_standby_names = ''");
            sql(primary.port, "SELECT pg_reload_conf()");
        }
        sql(standby.port, "ALTER SYSTEM SET primary_conninfo = ''");
        sql(standby.port, "SELECT pg_reload_conf()");
        Awaitility.await("primary on port " + primary.port + " without walsender")
                .atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> "0".equals(sql(primary.port, "SELECT count(*) FROM pg_stat_replication")));
    }

    /** Lets a detached standby stream again; returns once it has caught up. */
    public void reattachStandby() {
        sql(standby.port, "ALTER SYSTEM SET primary_conninfo = '" + conninfo(primary.port) + "'");
        sql(standby.port, "SELECT pg_reload_conf()");
        if (replication == Replication.SYNCHRONOUS) {
            sql(primary.port, "ALTER SYSTEM SET synchronous_standby_names = '*'");
            sql(primary.port, "SELECT pg_reload_conf()");
        }
        awaitStandbyCaughtUp();
    }

    /**
     * How many bytes of WAL the primary has written that the standby has not replayed.
     *
     * @return 0 when the standby is caught up
     */
    public long standbyLagBytes() {
        String primaryLsn = sql(primary.port, "SELECT pg_current_wal_lsn()");
        return Long.parseLong(sql(
                standby.port,
                "SELECT GREATEST(0, pg_wal_lsn_diff('" + primaryLsn + "'::pg_lsn, pg_last_wal_replay_lsn()))::bigint"));
    }

    /**
     * Fails over: stops the primary at once ({@code pg_ctl -m immediate}, as a crash) and promotes the standby, which
     * opens a new timeline. Returns once the promoted server accepts writes. Whatever the standby had not received is
     * lost (nothing, if it was caught up or synchronous).
     */
    public void failover() {
        Server old = primary;
        pgCtl(old, "-m", "immediate", "stop");
        old.running = false;
        pgCtl(standby, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "promote");
        primary = standby;
        standby = null;
        // a promoted synchronous primary would wait for a standby it no longer has
        sql(primary.port, "ALTER SYSTEM SET synchronous_standby_names = ''");
        sql(primary.port, "SELECT pg_reload_conf()");
        Awaitility.await("promoted server on port " + primary.port + " out of recovery")
                .atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> "f".equals(sql(primary.port, "SELECT pg_is_in_recovery()")));
    }

    /**
     * Starts the server that {@link #failover()} stopped, as the primary it was (its own timeline and its commits the
     * promoted one never had), beside the promoted server: two primaries, as when an HA tool failed to fence the old
     * one. pgjdbc's multi-host URL lists it first, so new connections go to it. A synchronous one is made
     * asynchronous once started: its commits would otherwise wait for ever for the standby it no longer has.
     */
    public void startOldPrimary() {
        Server old = primary == first ? second : first;
        if (old.running) {
            throw new IllegalStateException("server " + old.name + " on port " + old.port + " is running already");
        }
        pgCtl(old, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "-l", old.dir + ".log", "start");
        old.running = true;
        if (replication == Replication.SYNCHRONOUS) {
            // its commits would wait for ever for the standby it had: it takes writes, as a split brain does
            sql(old.port, "ALTER SYSTEM SET synchronous_standby_names = ''");
            sql(old.port, "SELECT pg_reload_conf()");
        }
    }

    /** The timeline the server of a port writes on now (1 at start; a promotion raises it). */
    public int timeline(int port) {
        return Integer.parseInt(sql(port, "SELECT substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)"), 16);
    }

    /** The server's system identifier ({@code pg_basebackup} copies it, so both servers share one). */
    public String systemIdentifier(int port) {
        return sql(port, "SELECT system_identifier FROM pg_control_system()");
    }

    /** Stops both servers at once and deletes their folders. */
    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            // the JVM is exiting: the hook runs or ran
        }
        deleteTree(root);
    }

    private void create() {
        if (asPostgres) {
            chownToPostgres(root);
        }
        // one initdb per JVM: each pair copies its cluster (an initdb costs about a second, a copy a tenth of one)
        run(true, List.of("cp", "-a", template().toString(), first.dir.toString()));
        appendConfig(
                first,
                List.of(
                        "listen_addresses = '127.0.0.1'",
                        "port = " + first.port,
                        "unix_socket_directories = '" + socketFolder() + "'",
                        "wal_level = replica",
                        "max_wal_senders = 5",
                        "hot_standby = on",
                        "fsync = off",
                        "full_page_writes = off",
                        "shared_buffers = 16MB",
                        "max_connections = 100",
                        "wal_receiver_status_interval = 1s",
                        "wal_retrieve_retry_interval = 500ms",
                        "logging_collector = off"));
        pgCtl(first, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "-l", first.dir + ".log", "start");
        first.running = true;
        run(
                false,
                List.of(
                        bin.resolve("psql").toString(),
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(first.port),
                        "-U",
                        "postgres",
                        "-d",
                        "postgres",
                        "-X",
                        "-q",
                        "-c",
                        "CREATE DATABASE " + DATABASE));
        run(
                true,
                List.of(
                        bin.resolve("pg_basebackup").toString(),
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(first.port),
                        "-U",
                        "postgres",
                        "-D",
                        second.dir.toString(),
                        "-R",
                        "-X",
                        "stream",
                        "-c",
                        "fast",
                        "--no-sync"));
        appendConfig(second, List.of("port = " + second.port));
        pgCtl(second, "-w", "-t", Long.toString(TIMEOUT.toSeconds()), "-l", second.dir + ".log", "start");
        second.running = true;
        primary = first;
        standby = second;
        Awaitility.await("standby on port " + second.port + " streaming")
                .atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> "1".equals(sql(first.port, "SELECT count(*) FROM pg_stat_replication")));
        if (replication == Replication.SYNCHRONOUS) {
            // set on the primary only, after the base backup, so that the promoted standby does not wait for itself
            sql(first.port, "ALTER SYSTEM SET synchronous_standby_names = '*'");
            sql(first.port, "SELECT pg_reload_conf()");
            Awaitility.await("standby on port " + second.port + " synchronous")
                    .atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> "sync".equals(sql(first.port, "SELECT sync_state FROM pg_stat_replication")));
        }
    }

    /**
     * The scratch folder, when a socket's path in it fits the 107 bytes a Unix socket's path may have; else none:
     * every client here connects over TCP.
     */
    private String socketFolder() {
        return (root + "/.s.PGSQL.65535").length() < 100 ? root.toString() : "";
    }

    /** The empty cluster each pair's primary starts from, made by {@code initdb} once per JVM under target/pg-pair. */
    private Path template() {
        synchronized (PostgresPair.class) {
            if (template == null) {
                Path made = root.getParent()
                        .resolve("template-" + ProcessHandle.current().pid());
                deleteTree(made);
                try {
                    Files.createDirectories(made);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot create " + made, e);
                }
                if (asPostgres) {
                    chownToPostgres(made);
                }
                run(
                        true,
                        List.of(
                                bin.resolve("initdb").toString(),
                                "-D",
                                made.toString(),
                                "-U",
                                "postgres",
                                "--auth=trust",
                                "--no-sync",
                                "--no-instructions"));
                template = made;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(made), "ax-test-pg-template-delete"));
            }
            return template;
        }
    }

    /** Guarded by the class. */
    private static Path template;

    private static String conninfo(int port) {
        return "host=127.0.0.1 port=" + port + " user=postgres application_name=ax-standby";
    }

    private void appendConfig(Server server, List<String> lines) {
        try {
            Files.writeString(
                    server.dir.resolve("postgresql.conf"),
                    String.join("\n", lines) + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot configure " + server.dir, e);
        }
    }

    private void pgCtl(Server server, String... args) {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D", server.dir.toString()));
        command.addAll(List.of(args));
        try {
            run(true, command);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\nserver log:\n" + logTail(server), e);
        }
    }

    private static String logTail(Server server) {
        try {
            List<String> lines = Files.readAllLines(Path.of(server.dir + ".log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(none)";
        }
    }

    private void stopAll() {
        for (Server server : new Server[] {first, second}) {
            if (server != null && server.running) {
                try {
                    pgCtl(server, "-m", "immediate", "stop");
                } catch (RuntimeException e) {
                    // stopped already, or its folder is gone: nothing left to stop
                }
                server.running = false;
            }
        }
    }

    /** Runs a command (as user postgres when asked and running as root) and returns its output; fails on exit != 0. */
    private String run(boolean asServerUser, List<String> command) {
        List<String> full = new ArrayList<>();
        if (asServerUser && asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        try {
            Process process = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .directory(root.toFile())
                    .start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
            String output = new String(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "exit " + process.exitValue() + " from " + String.join(" ", command) + ":\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }

    private static void chownToPostgres(Path path) {
        try {
            UserPrincipal postgres =
                    path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            Files.setOwner(path, postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + path + " to user postgres (does the user exist?)", e);
        }
    }

    private static Path binaries() {
        String configured = System.getenv("AX_TEST_PG_BIN");
        return configured == null || configured.isBlank() ? DEFAULT_BIN : Path.of(configured);
    }

    private static String missing(Path bin) {
        for (String program : new String[] {"initdb", "pg_ctl", "pg_basebackup", "psql"}) {
            if (!Files.isExecutable(bin.resolve(program))) {
                return bin.resolve(program) + " is missing";
            }
        }
        if ("root".equals(System.getProperty("user.name")) && !Files.isExecutable(Path.of("/usr/sbin/runuser"))) {
            return "running as root, initdb must run as user postgres, and runuser is missing";
        }
        return null;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a scratch folder under target/: the next clean removes it
        }
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "PostgresPair[%s, primary %d, standby %s]",
                replication,
                primary == null ? -1 : primary.port,
                standby == null ? "none" : Integer.toString(standby.port));
    }

    /** One server of the pair: its data folder and port; {@code running} as far as this fixture knows. */
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
    }
}
