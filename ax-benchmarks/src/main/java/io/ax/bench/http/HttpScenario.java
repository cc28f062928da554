package io.ax.bench.http;

import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.RedisConnections;
import io.ax.core.AxTask;
import io.ax.core.Rate;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskLimits;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.AxEngineBuilder;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.executor.HttpExecutor;
import io.ax.executor.HttpSettings;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import io.ax.redis.AxRedis;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The HTTP executor's calls per second against a local HTTP server (the JDK's, answering 200 with a short body), one
 * AX node on PostgreSQL (schema {@code bench_http}, audit log on): {@code --calls} delayed executions of one HTTP task
 * (5,000; quick 1,000), all due at once, on {@code --threads} workers (50), timed from the moment they are scheduled
 * until every one is SUCCESS in the database. Three columns: no limit; a rate the run never reaches ({@code 100000/1s}:
 * what taking a permit per call costs); and {@code --rate} (200/1s: the limit holding, its calls per second as the
 * rate allows). The server counts the requests it received in every window of the rate's length, so the table says
 * whether any window got more. {@code --permits=redis} keeps the rates' permits on the local Redis ({@code
 * ax.redis.permits=true}; {@code --redis-host}, {@code --redis-port}) instead of the database.
 */
public final class HttpScenario implements Scenario {

    private static final String SCHEMA = "bench_http";
    private static final String NONE = "no limit";
    private static final String COST = "rate 100000/1s (never reached)";

    @Override
    public ResultTable run(Options options) throws Exception {
        Logging.configure(options); // AX's INFO line per finished call off, as in the other database scenarios
        int calls = options.getInt("calls", 5_000, 1_000);
        int threads = options.getInt("threads", 50, 50);
        Rate limit = Rate.parse(options.get("rate", "200/1s"));
        boolean onRedis = switch (options.get("permits", "store")) {
            case "store" -> false;
            case "redis" -> true;
            default -> throw new IllegalArgumentException("--permits takes store or redis");
        };
        String held = "rate " + limit;
        List<String> columns = List.of(NONE, COST, held);
        Postgres pg = new Postgres(options);
        ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        byte[] body = "ok".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        server.createContext("/call", exchange -> {
            arrivals.add(System.nanoTime());
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        ExecutorService serverThreads = Executors.newFixedThreadPool(8);
        server.setExecutor(serverThreads);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/call";
        Map<String, double[]> results = new LinkedHashMap<>();
        try {
            Round r = new Round(pg, url, calls, threads, arrivals, limit.window(), onRedis ? options : null);
            results.put(NONE, r.run(null));
            results.put(COST, r.run(new Rate(100_000, Duration.ofSeconds(1))));
            results.put(held, r.run(limit));
        } finally {
            server.stop(0);
            serverThreads.shutdownNow();
        }
        ResultTable t = new ResultTable("HTTP executor with and without a rate limit", columns);
        t.row("calls/s", "1/s", Better.HIGHER, column(results, 0));
        t.row("time for " + String.format(Locale.ROOT, "%,d", calls) + " calls", "s", Better.LOWER, column(results, 1));
        t.row(
                "most requests the server got in any " + limit.window().toMillis() + " ms",
                "requests",
                Better.LOWER,
                column(results, 2));
        t.withoutRatios();
        t.note(String.format(
                Locale.ROOT,
                "One AX node, JDBC store on PostgreSQL (audit log on), %d workers, %,d executions of one HTTP task"
                        + " (GET, a local JDK HttpServer answering 200 \"ok\" on 8 threads), scheduled due at once by"
                        + " scheduleAll; timed from the call to scheduleAll until all are SUCCESS in the database. A"
                        + " rate takes a permit per call in the claim's own transaction (one transaction per claim"
                        + " instead of one group of writes). The last row counts the server's arrivals in a sliding"
                        + " window of the rate's length: with %s it must not exceed %d.%s",
                threads,
                calls,
                held,
                limit.permits(),
                onRedis
                        ? " The permits were on the local Redis (ax.redis.permits=true): a claim took them there, and"
                                + " only its change to RUNNING in the database."
                        : ""));
        return t;
    }

    private static Map<String, Double> column(Map<String, double[]> results, int index) {
        Map<String, Double> out = new LinkedHashMap<>();
        results.forEach((k, v) -> out.put(k, v[index]));
        return out;
    }

    /**
     * The rounds' common settings.
     *
     * @param redis the options naming the Redis that keeps the permits, or null to keep them in the database
     */
    private record Round(
            Postgres pg,
            String url,
            int calls,
            int threads,
            ConcurrentLinkedQueue<Long> arrivals,
            Duration window,
            Options redis) {

        double[] run(Rate rate) throws Exception {
            if (redis == null) {
                return round(pg, url, calls, threads, rate, arrivals, window, null);
            }
            LettuceConnectionFactory factory = RedisConnections.factory(redis);
            // a prefix of its own and no quarantine: nobody holds a permit of the round before it starts
            try (AxRedis ax = new AxRedis(factory, "axbench:http:" + System.nanoTime() + ":", Duration.ofSeconds(3))) {
                return round(pg, url, calls, threads, rate, arrivals, window, ax);
            } finally {
                factory.destroy();
            }
        }
    }

    /** One round: {calls/s, seconds, most arrivals in a window}; the permits on {@code redis} unless it is null. */
    private static double[] round(
            Postgres pg,
            String url,
            int calls,
            int threads,
            Rate rate,
            ConcurrentLinkedQueue<Long> arrivals,
            Duration window,
            AxRedis redis)
            throws Exception {
        pg.recreateSchema(SCHEMA);
        arrivals.clear();
        try (HikariDataSource ds = pg.pool(SCHEMA, 6)) {
            JdbcSchema.migrate(ds, "ax_");
            HttpExecutor http = new HttpExecutor(new HttpSettings(List.of(url), 256, Duration.ofSeconds(2), 4));
            JdbcInstanceStore store = new JdbcInstanceStore(ds, "ax_");
            AxEngineBuilder builder = AxEngine.builder();
            if (redis != null) {
                builder.permits(redis.permits(store, store.permits().orElseThrow(), Duration.ZERO));
            }
            AxEngine engine = builder.store(store)
                    .router(new ExecutorRouter(List.of(http)))
                    .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, calls)))
                    .build();
            engine.register(AxTask.builder("call")
                    .type(HttpExecutor.TYPE)
                    .target(url)
                    .concurrent(true)
                    .timeout(Duration.ofSeconds(10))
                    .limits(new TaskLimits(0, null, rate))
                    .build());
            engine.start();
            try {
                List<ScheduleRequest> requests = new ArrayList<>(calls);
                for (int i = 0; i < calls; i++) {
                    requests.add(ScheduleRequest.of("call").after(Duration.ZERO));
                }
                JdbcTemplate jdbc = new JdbcTemplate(ds);
                long start = System.nanoTime();
                engine.scheduleAll(requests);
                long deadline = start + Duration.ofMinutes(10).toNanos();
                while (true) {
                    Integer done = jdbc.queryForObject(
                            "SELECT COUNT(*) FROM ax_instance WHERE state = 'SUCCESS'", Integer.class);
                    if (done != null && done >= calls) {
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the round did not finish in 10 minutes: " + done + " done");
                    }
                    Thread.sleep(20);
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                return new double[] {calls / seconds, seconds, mostInAnyWindow(arrivals, window)};
            } finally {
                engine.stop();
            }
        } finally {
            pg.dropSchema(SCHEMA);
        }
    }

    /** The most arrivals in any window of {@code window}, wherever it begins (a two-pointer sweep). */
    static int mostInAnyWindow(ConcurrentLinkedQueue<Long> arrivals, Duration window) {
        long[] at = arrivals.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(at);
        int most = 0;
        int first = 0;
        for (int last = 0; last < at.length; last++) {
            while (at[last] - at[first] >= window.toNanos()) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }
}
