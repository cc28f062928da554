package io.ax.bench.queue;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.ScheduleRequest;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.jdbc.JdbcInstanceStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The AX side's process of the {@code queue} scenario: one application with an AX engine on PostgreSQL, driven by the
 * benchmark's JVM one command per line on stdin, answered with one line on stdout that starts with {@code @} (the
 * protocol of {@code graphile-peer.cjs}, the graphile-worker side's process):
 *
 * <ul>
 *   <li>{@code QUEUE <n> <first>}: schedules {@code n} executions due now in one {@code scheduleAll} call, before the
 *       engine starts (an application that queues work while no node runs);
 *   <li>{@code START}: starts the engine; the handler counts its executions from here;
 *   <li>{@code COUNT}: executions since {@code START};
 *   <li>{@code END}: stops the engine (a fresh one, not started, takes its place for the next round); executions and
 *       this JVM's CPU since {@code START};
 *   <li>{@code PRODUCE <rate> <seconds>}: schedules one execution at a time ({@code schedule}), {@code rate} per
 *       second, each carrying the time it was scheduled;
 *   <li>{@code LATENCY}: scheduled -&gt; handler start of what ran since {@code START} or the last {@code LATENCY};
 *   <li>{@code STOP}: exits (after {@code END}).
 * </ul>
 *
 * Before it says {@code @READY}, the JVM starts an engine and stops it: an application's store has learned the
 * cluster's partitions before it queues, so that what it queues carries its partition, as an AX node writes it. The
 * engine has AX's default cluster settings; its one pool has {@code --threads} threads (the peer's concurrency).
 */
public final class QueueNode {

    /** The queued jobs' task: its handler leaves the payload alone (AX reads a payload from the store when asked). */
    static final String TASK = "noop";
    /** The latency rounds' task: its handler reads the time its job was scheduled from the payload. */
    static final String TIMED = "timed";

    static final String TIME_MARK = "t=";

    private final JdbcInstanceStore store;
    private final String nodeId;
    private final int threads;
    private final int queue;
    private final NoOp handler = new NoOp();
    private AxEngine engine;
    private long cpuAtStart;

    private QueueNode(JdbcInstanceStore store, String nodeId, int threads, int queue) {
        this.store = store;
        this.nodeId = nodeId;
        this.threads = threads;
        this.queue = queue;
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(List.of(args));
        Logging.configure(options);
        HikariDataSource ds = new Postgres(options).pool(options.get("schema", null), options.getInt("pool", 10, 10));
        QueueNode node = new QueueNode(
                new JdbcInstanceStore(ds, options.get("prefix", null)),
                options.get("node-id", "q1"),
                options.getInt("threads", 24, 24),
                options.getInt("queue", 20_000, 20_000));
        try {
            AxEngine first = node.build();
            first.start();
            first.stop();
            node.engine = node.build();
        } catch (RuntimeException e) {
            e.printStackTrace();
            reply("@FAILED " + e.toString().replace('\n', ' '));
            Runtime.getRuntime().halt(1);
        }
        reply("@READY pid=" + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            try {
                reply(node.answer(line.strip().split("\\s+")));
            } catch (Exception e) {
                e.printStackTrace();
                reply("@ERROR " + e.toString().replace('\n', ' '));
            }
        }
        // the benchmark is gone: no node outlives it
        Runtime.getRuntime().halt(2);
    }

    private AxEngine build() {
        AxEngine e = AxEngine.builder()
                .store(store)
                .nodeId(nodeId)
                .clusterSettings(ClusterSettings.defaults())
                .router(new ExecutorRouter(List.of(handler)))
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, queue)))
                .build();
        e.register(AxTask.builder(TASK).concurrent(true).build());
        e.register(AxTask.builder(TIMED).concurrent(true).build());
        return e;
    }

    private String answer(String[] command) throws InterruptedException {
        switch (command[0]) {
            case "QUEUE" -> {
                int n = Integer.parseInt(command[1]);
                int first = Integer.parseInt(command[2]);
                List<ScheduleRequest> requests = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    requests.add(ScheduleRequest.of(TASK).after(Duration.ZERO).payload("n=" + (first + i)));
                }
                long t0 = System.nanoTime();
                engine.scheduleAll(requests);
                return String.format(Locale.ROOT, "@QUEUE seconds=%.4f", (System.nanoTime() - t0) / 1e9);
            }
            case "START" -> {
                handler.reset();
                cpuAtStart = cpuNanos();
                engine.start();
                return "@START";
            }
            case "COUNT" -> {
                return "@COUNT executions=" + handler.executions.get();
            }
            case "END" -> {
                engine.stop();
                double cpu = (cpuNanos() - cpuAtStart) / 1e9;
                engine = build();
                return String.format(Locale.ROOT, "@END executions=%d cpu=%.4f", handler.executions.get(), cpu);
            }
            case "PRODUCE" -> {
                double rate = Double.parseDouble(command[1]);
                long total = Math.round(rate * Double.parseDouble(command[2]));
                long start = System.nanoTime();
                for (long i = 0; i < total; i++) {
                    long wait = start + (long) (i * 1e9 / rate) - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    engine.schedule(
                            ScheduleRequest.of(TIMED).after(Duration.ZERO).payload(TIME_MARK + micros()));
                }
                return "@PRODUCE count=" + total;
            }
            case "LATENCY" -> {
                return handler.latencies();
            }
            case "STOP" -> {
                reply("@STOPPED");
                System.exit(0);
                return "";
            }
            default -> {
                return "@ERROR unknown command '" + String.join(" ", command) + "'";
            }
        }
    }

    /** The real-time clock in microseconds: the one the peer's process reads too. */
    static long micros() {
        Instant now = Instant.now();
        return ChronoUnit.MICROS.between(Instant.EPOCH, now);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void reply(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** The handler: counts what ran and, for what carries the time it was scheduled, how long it waited. */
    private static final class NoOp implements AxExecutor {

        final AtomicLong executions = new AtomicLong();
        private final ConcurrentLinkedQueue<Double> waited = new ConcurrentLinkedQueue<>();

        void reset() {
            executions.set(0);
            waited.clear();
        }

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            String payload = task.name().equals(TIMED) ? context.payloadString() : null;
            if (payload != null && payload.startsWith(TIME_MARK)) {
                waited.add((micros() - Long.parseLong(payload.substring(TIME_MARK.length()))) / 1000.0);
            }
            executions.incrementAndGet();
            return null;
        }

        /** The {@code @LATENCY} answer; starts the next count. */
        String latencies() {
            List<Double> sorted = new ArrayList<>();
            for (Double d = waited.poll(); d != null; d = waited.poll()) {
                sorted.add(d);
            }
            sorted.sort(null);
            return String.format(
                    Locale.ROOT,
                    "@LATENCY count=%d p50=%.3f p99=%.3f max=%.3f",
                    sorted.size(),
                    percentile(sorted, 0.5),
                    percentile(sorted, 0.99),
                    percentile(sorted, 1));
        }

        private static double percentile(List<Double> sorted, double q) {
            if (sorted.isEmpty()) {
                return 0;
            }
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
        }
    }
}
