package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.Partitions;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.jdbc.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A series goes on when a partition moves while its next fire is being written. A node writes the next fires of the
 * tasks that fired together in one group, across many partitions; when one of those partitions moves under the write,
 * the store refuses the whole group. The fires of the partitions the node still owns are written again at once, so
 * none of their series waits for the reconciliation (two looks, 10 s apart) to find it stopped.
 */
class SeriesAcrossAMoveTest {

    private static final String PREFIX = "axseriesmove_";
    private static final int TASKS = 300;
    private static final Duration PERIOD = Duration.ofMillis(500);
    /** A few periods: far below the reconciliation's two looks, which a lost series would wait for. */
    private static final Duration GOES_ON_WITHIN = Duration.ofSeconds(5);

    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theSeriesOfThePartitionsANodeKeepsGoOnWhenAnotherPartitionMovesUnderTheirNextFiresWrite(
            TestDatabase database) {
        database.migrate(PREFIX);
        database.truncate(PREFIX);
        DataSource dataSource = database.dataSource();
        JdbcTemplate db = new JdbcTemplate(dataSource);
        Map<String, Instant> lastFire = new ConcurrentHashMap<>();
        AtomicBoolean armed = new AtomicBoolean();
        AtomicReference<Instant> movedAt = new AtomicReference<>();
        AtomicInteger moved = new AtomicInteger(-1);
        JdbcInstanceStore real = new JdbcInstanceStore(dataSource, PREFIX);
        InstanceStore store = movingAPartitionUnderAGroup(real, armed, partition -> {
            // another node took the partition (and is gone): the group's fence on it is stale from now on
            db.update(
                    "UPDATE " + PREFIX + "partition SET owner = 'elsewhere', incarnation = 'gone', epoch = epoch + 1"
                            + " WHERE id = ?",
                    partition);
            moved.set(partition);
            movedAt.set(Instant.now());
        });
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new LastFires(lastFire))))
                .nodeId("n1")
                .clusterSettings(JdbcClusterContract.FAST)
                .build();
        for (int i = 0; i < TASKS; i++) {
            engine.register(AxTask.builder("s" + i)
                    .target("test.s" + i)
                    .trigger(IntervalTrigger.fixedRate(PERIOD, Duration.ZERO))
                    .build());
        }
        engine.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> lastFire.size() == TASKS);

        armed.set(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> movedAt.get() != null);
        Instant after = movedAt.get().plus(PERIOD);
        Set<String> kept = new TreeSet<>();
        for (int i = 0; i < TASKS; i++) {
            if (Partitions.of("s" + i, 256) != moved.get()) {
                kept.add("s" + i);
            }
        }
        assertThat(kept).as("the tasks of the partitions the node kept").hasSizeLessThan(TASKS);

        await("every series of a partition the node kept fires again")
                .atMost(GOES_ON_WITHIN)
                .untilAsserted(() -> assertThat(kept)
                        .as("series not fired since the move")
                        .filteredOn(t -> !lastFire.get(t).isAfter(after))
                        .isEmpty());
        await("the moved partition's series go on too, once the node took it back")
                .atMost(Duration.ofSeconds(15))
                .until(() -> lastFire.values().stream().allMatch(t -> t.isAfter(after)));
        assertThat(engine.status().repairedSeries())
                .as("series the reconciliation had to repair")
                .isZero();
    }

    /**
     * The store, which before the first group of new fires spanning two partitions written once {@code armed}, has the
     * partition of the group's first fire taken away ({@code move}).
     */
    private static InstanceStore movingAPartitionUnderAGroup(
            JdbcInstanceStore real, AtomicBoolean armed, java.util.function.IntConsumer move) {
        return (InstanceStore) Proxy.newProxyInstance(
                InstanceStore.class.getClassLoader(),
                new Class<?>[] {InstanceStore.class, ClusterStore.class},
                (proxy, method, args) -> {
                    if (isGroupOfFires(method) && armed.get()) {
                        @SuppressWarnings("unchecked")
                        List<NewFire> fires = (List<NewFire>) args[0];
                        Set<Integer> partitions = new TreeSet<>();
                        fires.forEach(f -> partitions.add(Partitions.of(f.instance(), 256)));
                        if (partitions.size() > 1 && armed.compareAndSet(true, false)) {
                            move.accept(Partitions.of(fires.get(0).instance(), 256));
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static boolean isGroupOfFires(Method method) {
        return method.getName().equals("schedule") && method.getParameterCount() == 2;
    }

    /** Records the latest fire time each task ran for. */
    private record LastFires(Map<String, Instant> lastFire) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            lastFire.merge(context.taskName(), context.scheduledTime(), (a, b) -> a.isAfter(b) ? a : b);
            return AxResult.success();
        }
    }
}
