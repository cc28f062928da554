package io.ax.bench.delayed;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.NewFire;
import io.ax.jdbc.JdbcInstanceStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ready to fire after a restart, in a fresh JVM: the parent stops its engine, leaving the pending instances in the
 * store, writes {@value #CANARIES} "canary" instances due every 50 ms from half a second after it launches the
 * child, and launches this class's {@link #main} as a child process on the same jar. The child builds its
 * connection pool and engine, starts it, and then schedules one execution due 1 s later; it reports when
 * {@link AxEngine#start()} returned (the engine is ready to fire), what the store calls of the start cost, and
 * when that execution and the canaries ran. It prints one line, {@code READY key=value ...}, and exits.
 */
public final class ReadyToFire {

    static final String CANARY = "canary";
    static final String PROBE = "ready-probe";
    static final int CANARIES = 200;
    static final Duration CANARY_STEP = Duration.ofMillis(50);
    static final Duration CANARY_OFFSET = Duration.ofMillis(500);
    static final String CHILD_HEAP = "-Xmx512m";
    private static final Duration PROBE_DELAY = Duration.ofSeconds(1);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(2);

    /** What the child reported, in seconds unless named otherwise. */
    record Result(
            double launchToReady,
            double jvmToReady,
            double engineStart,
            TimedStore.Calls windowLoad,
            TimedStore.Calls inFlightLookup,
            double probeLateMillis,
            double launchToProbeFired,
            int canariesFired,
            int canariesDueAfterReady,
            double canariesAfterReadyMaxLateMillis,
            int unexpected) {}

    private ReadyToFire() {}

    /** Parent side: writes the canaries, runs the child and reads its report. */
    static Result measure(Options options, Postgres pg, int threads, int queue) throws Exception {
        Instant written;
        try (HikariDataSource ds = pg.pool(AxDelayed.SCHEMA, 1)) {
            JdbcInstanceStore store = new JdbcInstanceStore(ds, AxDelayed.PREFIX);
            List<NewFire> canaries = new ArrayList<>(CANARIES);
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            written = now;
            for (int i = 0; i < CANARIES; i++) {
                Instant due = now.plus(CANARY_OFFSET).plus(CANARY_STEP.multipliedBy(i));
                canaries.add(new NewFire(
                        new TaskInstance(
                                UUID.randomUUID().toString(),
                                CANARY,
                                due,
                                InstanceState.SCHEDULED,
                                0,
                                "bench",
                                now,
                                InstanceOrigin.DELAYED,
                                null),
                        "canary"));
            }
            store.schedule(canaries);
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                CHILD_HEAP,
                "-cp",
                System.getProperty("java.class.path"),
                ReadyToFire.class.getName(),
                "--jdbc-url=" + options.jdbcUrl(),
                "--jdbc-user=" + options.jdbcUser(),
                "--jdbc-password=" + options.jdbcPassword(),
                "--threads=" + threads,
                "--queue=" + queue,
                "--ax-info-log=" + options.get("ax-info-log", "false")));
        long launchMillis = System.currentTimeMillis();
        Process child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Map<String, String> report = null;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("READY ")) {
                    report = parse(line);
                } else {
                    System.err.println("[ready child] " + line);
                }
            }
        }
        if (!child.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException("the ready-to-fire child did not exit within " + CHILD_TIMEOUT);
        }
        if (report == null || child.exitValue() != 0) {
            throw new IllegalStateException("the ready-to-fire child failed (exit " + child.exitValue() + ")");
        }
        long readyMillis = Long.parseLong(report.get("readyMs"));
        long probeFiredMillis = Long.parseLong(report.get("probeFiredMs"));
        DelayedScenario.log(
                "the child launched %d ms after the canaries were written (the first due %d ms after that)",
                launchMillis - written.toEpochMilli(), CANARY_OFFSET.toMillis());
        return new Result(
                (readyMillis - launchMillis) / 1e3,
                (readyMillis - Long.parseLong(report.get("jvmStartMs"))) / 1e3,
                Long.parseLong(report.get("startNanos")) / 1e9,
                calls(report, "window"),
                calls(report, "inFlight"),
                probeFiredMillis < 0 ? Double.NaN : Long.parseLong(report.get("probeLateMicros")) / 1e3,
                probeFiredMillis < 0 ? Double.NaN : (probeFiredMillis - launchMillis) / 1e3,
                Integer.parseInt(report.get("canariesFired")),
                Integer.parseInt(report.get("canariesAfterReady")),
                Long.parseLong(report.get("canariesAfterReadyMaxLateMicros")) / 1e3,
                Integer.parseInt(report.get("unexpected")));
    }

    private static Map<String, String> parse(String line) {
        Map<String, String> out = new HashMap<>();
        for (String pair : line.substring("READY ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }

    private static TimedStore.Calls calls(Map<String, String> report, String prefix) {
        return new TimedStore.Calls(
                Long.parseLong(report.get(prefix + "Calls")),
                Long.parseLong(report.get(prefix + "Nanos")),
                Long.parseLong(report.get(prefix + "Rows")),
                0);
    }

    /** A run of a handler in the child: which task, the time it was due, when it started. */
    private record Fired(String task, Instant due, Instant started) {

        long lateMicros() {
            return ChronoUnit.MICROS.between(due, started);
        }
    }

    /** Child side. */
    public static void main(String[] args) throws Exception {
        long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        Options options = Options.parse(List.of(args));
        Logging.configure(options);
        ConcurrentLinkedQueue<Fired> fired = new ConcurrentLinkedQueue<>();
        AtomicInteger unexpected = new AtomicInteger();

        HikariDataSource ds = new Postgres(options).pool(AxDelayed.SCHEMA, AxDelayed.CONNECTIONS);
        TimedStore timed = TimedStore.around(new JdbcInstanceStore(ds, AxDelayed.PREFIX));
        AxEngine engine = AxDelayed.newEngine(
                timed.store(),
                options.getInt("threads", 20, 20),
                options.getInt("queue", 1_000, 1_000),
                (task, due) -> {
                    if (task.equals(CANARY) || task.equals(PROBE)) {
                        fired.add(new Fired(task, due, Instant.now()));
                    } else {
                        unexpected.incrementAndGet();
                    }
                },
                List.of(CANARY, PROBE));
        long t0 = System.nanoTime();
        engine.start();
        long startNanos = System.nanoTime() - t0;
        long readyMs = System.currentTimeMillis();
        Instant ready = Instant.ofEpochMilli(readyMs);
        TimedStore.Calls window = timed.calls("findScheduled");
        TimedStore.Calls inFlight = timed.calls("findByStates");

        engine.schedule(ScheduleRequest.of(PROBE).at(ready.plus(PROBE_DELAY)));
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (fired.size() < CANARIES + 1 && System.nanoTime() < giveUp) {
            Thread.sleep(10);
        }
        Fired probe =
                fired.stream().filter(f -> f.task().equals(PROBE)).findFirst().orElse(null);
        List<Fired> canaries =
                fired.stream().filter(f -> f.task().equals(CANARY)).toList();
        List<Fired> afterReady =
                canaries.stream().filter(f -> !f.due().isBefore(ready)).toList();
        long maxLate = afterReady.stream().mapToLong(Fired::lateMicros).max().orElse(-1);
        System.out.printf(
                Locale.ROOT,
                "READY jvmStartMs=%d readyMs=%d startNanos=%d windowCalls=%d windowNanos=%d windowRows=%d"
                        + " inFlightCalls=%d inFlightNanos=%d inFlightRows=%d probeLateMicros=%d probeFiredMs=%d"
                        + " canariesFired=%d canariesAfterReady=%d canariesAfterReadyMaxLateMicros=%d unexpected=%d%n",
                jvmStartMs,
                readyMs,
                startNanos,
                window.count(),
                window.nanos(),
                window.rows(),
                inFlight.count(),
                inFlight.nanos(),
                inFlight.rows(),
                probe == null ? -1 : probe.lateMicros(),
                probe == null ? -1 : probe.started().toEpochMilli(),
                canaries.size(),
                afterReady.size(),
                maxLate,
                unexpected.get());
        System.out.flush();
        engine.stop();
        ds.close();
        System.exit(0);
    }
}
