package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Partitions move under a load of thousands of series: a second node joins a node that runs 2,000 series firing every
 * second, takes half the partitions, and stops again. Every series goes on through both moves: no reconciliation
 * repairs one, and no fire starts later than fires did before the moves plus the longer move's duration and a little
 * (a tick, a claim's round trip).
 */
class PostgresMovesUnderLoadTest {

    private static final String PREFIX = "axmoves_";
    private static final int SERIES = 2_000;
    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final TestDatabase database = TestDatabase.POSTGRESQL;
    private final List<AxEngine> engines = new ArrayList<>();
    private final Map<String, Instant> lastFire = new ConcurrentHashMap<>();

    @AfterEach
    void stopAll() {
        engines.forEach(AxEngine::stop);
    }

    @Test
    void everySeriesGoesOnThroughTwoMovesWithoutARepair() {
        database.migrate(PREFIX);
        database.truncate(PREFIX);
        AxEngine n1 = node("n1");
        n1.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> lastFire.size() == SERIES);

        AxEngine n2 = node("n2");
        n2.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> owned(n1) == 128 && owned(n2) == 128);

        n2.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> owned(n1) == 256);

        Instant after = Instant.now().plus(PERIOD);
        await("every series fires after both moves")
                .atMost(Duration.ofSeconds(10))
                .until(() -> lastFire.values().stream().allMatch(t -> t.isAfter(after)));

        assertThat(n1.status().repairedSeries() + n2.status().repairedSeries())
                .as("series the reconciliation had to repair")
                .isZero();
    }

    private static int owned(AxEngine node) {
        return node.status().partitions().map(p -> p.owned().size()).orElse(0);
    }

    private AxEngine node(String id) {
        AxEngine e = AxEngine.builder()
                .store(new JdbcInstanceStore(database.dataSource(), PREFIX))
                .router(new ExecutorRouter(List.of(new Runs())))
                .nodeId(id)
                .clusterSettings(JdbcClusterContract.FAST)
                .defaultPool(new PoolSettings(16, 2 * SERIES)) // a second's fires fit its queue
                .build();
        for (int i = 0; i < SERIES; i++) {
            e.register(AxTask.builder("s" + i)
                    .target("test.s" + i)
                    .trigger(IntervalTrigger.fixedRate(PERIOD, Duration.ZERO))
                    .build());
        }
        engines.add(e);
        return e;
    }

    /** Records the latest fire time each series ran for. */
    private final class Runs implements AxExecutor {

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
