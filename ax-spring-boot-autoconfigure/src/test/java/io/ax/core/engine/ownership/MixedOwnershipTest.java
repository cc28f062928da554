package io.ax.core.engine.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.MixedClusterProtocolException;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node of this version (partitioned ownership) does not start beside a live node of the leader's protocol of the
 * versions before it, on one store, and says why: a rolling upgrade from the leader's protocol stops the old nodes
 * first. The old node is its row in the node registry, as that version wrote it. Engines sharing one in-memory store
 * are one cluster.
 */
class MixedOwnershipTest {

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final List<AxEngine> engines = new ArrayList<>();

    @AfterEach
    void stopAll() {
        engines.forEach(AxEngine::stop);
    }

    private AxEngine node(String id) {
        AxEngine e = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId(id)
                .shutdownAwait(Duration.ofSeconds(1))
                .build();
        engines.add(e);
        return e;
    }

    @Test
    void aPartitionedNodeDoesNotStartBesideALeaderNode() {
        store.nodeRegistry()
                .register(
                        new NodeInfo(
                                "old",
                                "inc-old",
                                "host",
                                Instant.EPOCH,
                                Set.of("default"),
                                4,
                                ClusterProtocol.LEADER_ASSIGNS),
                        Duration.ofMinutes(1));
        AxEngine fresh = node("new");

        assertThatThrownBy(fresh::start)
                .isInstanceOf(MixedClusterProtocolException.class)
                .hasMessageContaining("Node new speaks AX cluster protocol " + ClusterProtocol.PARTITIONS_OWN)
                .hasMessageContaining("(protocol " + ClusterProtocol.LEADER_ASSIGNS + ")");
        assertThat(fresh.isRunning()).isFalse();
    }
}
