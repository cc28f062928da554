package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.ownership.Ownership;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcLeaderLease;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * An engine that leads through the lease on Redis writes to the database fenced by the epoch the database recorded:
 * when the database's epoch moves past it, its writes are refused, it steps down, and it leads again only at an epoch
 * above the database's.
 */
class RedisLeaseEngineTest {

    private static final String TABLES = "axred_";
    private static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(300), Duration.ofMillis(50), 32);

    private LettuceConnectionFactory factory;
    private RedisLink link;
    private AxEngine engine;
    private final String prefix = TestRedis.randomPrefix("redis");
    private final RecordingExecutor executor = new RecordingExecutor();

    @BeforeEach
    void start() {
        factory = TestRedis.shared();
        link = new RedisLink(factory, prefix, Duration.ofSeconds(1), InstantSource.system());
        TestDatabase.H2.migrate(TABLES);
        executor.when("work", ctx -> AxResult.success());
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
        link.close();
        TestRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    @Test
    void aLeaderWhoseEpochTheDatabaseNoLongerHasIsRefusedAndLeadsAgainAboveIt() {
        JdbcInstanceStore store = new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES);
        JdbcLeaderLease row = store.leaderLease();
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("solo")
                .clusterSettings(FAST)
                .cluster(new RedisLeaderLease(link, row), store.nodeRegistry())
                .shutdownAwait(Duration.ofSeconds(2))
                .ownership(Ownership.LEADER) // the rows' writes carry the leader's epoch only under the leader
                .build();
        engine.register(AxTask.builder("work")
                .target("test.work")
                .timeout(Duration.ofSeconds(20))
                .build());
        engine.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> engine.cluster().isLeader());
        long first = engine.cluster().epoch();
        assertThat(row.current().epoch()).isEqualTo(first);
        String before = engine.triggerNow("work");
        await().atMost(Duration.ofSeconds(10)).until(() -> state(store, before) == InstanceState.SUCCESS);

        // another leader's epoch reaches the database (its lease elsewhere, a split): this one's writes are refused
        row.advance("intruder", first + 5);
        String after = engine.triggerNow("work");

        await().atMost(Duration.ofSeconds(20)).until(() -> engine.cluster().epoch() > first + 5);
        assertThat(row.current().epoch()).isEqualTo(engine.cluster().epoch());
        await().atMost(Duration.ofSeconds(20)).until(() -> state(store, after) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("work")).hasSize(2);
    }

    private static InstanceState state(JdbcInstanceStore store, String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
