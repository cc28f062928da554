package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A dead node's attempt is found behind more rows in flight than one look reads (10,000), when those rows are a live
 * node's: the look reads only the rows no live node holds, so a busy node's work cannot hide a dead one's.
 */
class DeadWorkBehindLiveWorkTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String NODE = "busy-node";
    private static final int LIVE_ROWS = 10_001;
    private static final ClusterSettings FAST = new ClusterSettings(
                    Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(300), Duration.ofMillis(50), 32)
            .withPartitions(1);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aDeadNodesAttemptIsRetriedThoughMoreThanAPageOfALiveNodesAttemptsComeBeforeIt() {
        AxTask task = AxTask.builder("job")
                .timeout(Duration.ofSeconds(5))
                .retry(new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build();
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(NODE)
                .clusterSettings(FAST)
                .shutdownAwait(Duration.ofSeconds(1))
                .build();
        engine.register(task);
        engine.start();

        // written after the start, so that the node's look at its own last run does not meet them: attempts this
        // live node runs, all ordered before the dead node's (due an hour ahead, so that none is claimed before the
        // test marks it running)
        Instant ahead = now.plus(Duration.ofHours(1));
        List<String> live = new ArrayList<>();
        for (int n = 0; n < LIVE_ROWS; n++) {
            String id = instance(task, ahead.plusMillis(n));
            running(id, NODE, now.minusSeconds(1));
            live.add(id);
        }
        String dead = instance(task, ahead.plusSeconds(60));
        running(dead, "dead-node", now.minusSeconds(60));

        await().atMost(BOUND).until(() -> state(dead) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(2);
        assertThat(live)
                .as("the live node's attempts are left as they are")
                .allSatisfy(id -> assertThat(store.find(id))
                        .hasValueSatisfying(i -> assertThat(i.state()).isEqualTo(InstanceState.RUNNING)));
    }

    private String instance(AxTask task, Instant at) {
        String id = UUID.randomUUID().toString();
        TaskInstance i = new TaskInstance(
                id, task.name(), at, InstanceState.SCHEDULED, 0, NODE, at, InstanceOrigin.ON_DEMAND, null);
        assertThat(store.schedule(List.of(new NewFire(i, "seeded")))).containsExactly(true);
        return id;
    }

    private void running(String id, String node, Instant claimedAt) {
        Transition claim =
                new Transition(id, InstanceState.SCHEDULED, InstanceState.RUNNING, 1, node, claimedAt, "claimed");
        assertThat(store.transition(claim.assignedTo(node, 0))).isTrue();
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
