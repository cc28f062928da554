package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a node reads when partitions become its own: a few set reads for all the tasks of those partitions, not a read
 * per task or per row. A node gains all 256 partitions of a store holding a thousand series whose next fires wait
 * beyond the prefetch window (so each must be found pending, not planned again).
 */
class GainReadsTest {

    private static final String PREFIX = "axgain_";
    private static final int TASKS = 1_000;

    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"H2", "POSTGRESQL"})
    void aGainReadsItsPartitionsInAFewSetReadsNotARowAtATime(TestDatabase database) {
        database.migrate(PREFIX);
        database.truncate(PREFIX);
        JdbcTemplate db = new JdbcTemplate(database.dataSource());
        // the first node writes every series' next fire, hours ahead, and stops
        engine = node(new JdbcInstanceStore(database.dataSource(), PREFIX));
        engine.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> scheduled(db) == TASKS);
        engine.stop();

        Map<String, LongAdder> calls = new ConcurrentHashMap<>();
        engine = node(counting(new JdbcInstanceStore(database.dataSource(), PREFIX), calls));
        engine.start();
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        engine.status().partitions().map(p -> p.owned().size()).orElse(0) == 256);

        assertThat(count(calls, "findByKey")).as("a read per task").isZero();
        assertThat(count(calls, "find")).as("a read per row").isZero();
        assertThat(count(calls, "scheduledWithKey"))
                .as("the pending next fires, found together")
                .isBetween(1L, 4L);
        assertThat(scheduled(db)).as("no series planned twice").isEqualTo(TASKS);
    }

    /**
     * Each series fires daily at the hour 12 hours from the test's start: always hours beyond the prefetch window (a
     * fixed hour would fall inside it in the minute before it, and its fires would be loaded, not found pending).
     */
    private static final String DAILY =
            "0 0 " + java.time.LocalTime.now(ZoneOffset.UTC).plusHours(12).getHour() + " * * ?";

    private static AxEngine node(InstanceStore store) {
        AxEngine e = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId("n1")
                .clusterSettings(JdbcClusterContract.FAST)
                .build();
        for (int i = 0; i < TASKS; i++) {
            e.register(AxTask.builder("daily" + i)
                    .target("test.daily" + i)
                    .trigger(CronTrigger.of(DAILY, ZoneOffset.UTC))
                    .build());
        }
        return e;
    }

    private static long scheduled(JdbcTemplate db) {
        Long n = db.queryForObject(
                "SELECT COUNT(*) FROM " + PREFIX + "instance WHERE state = '" + InstanceState.SCHEDULED + "'",
                Long.class);
        return n == null ? 0 : n;
    }

    private static long count(Map<String, LongAdder> calls, String method) {
        LongAdder n = calls.get(method);
        return n == null ? 0 : n.sum();
    }

    /** The store, counting the calls of each of its methods by name. */
    private static InstanceStore counting(JdbcInstanceStore real, Map<String, LongAdder> calls) {
        return (InstanceStore) Proxy.newProxyInstance(
                InstanceStore.class.getClassLoader(),
                new Class<?>[] {InstanceStore.class, ClusterStore.class},
                (proxy, method, args) -> {
                    calls.computeIfAbsent(method.getName(), k -> new LongAdder())
                            .increment();
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
