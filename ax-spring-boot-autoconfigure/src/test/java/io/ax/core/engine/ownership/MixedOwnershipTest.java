package io.ax.core.engine.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.MixedClusterProtocolException;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Nodes of the two ownerships on one store are two protocols: a node built for partitions does not start beside a
 * live node of the leader's protocol, nor the other way round, and says why. Engines sharing one in-memory store are
 * one cluster.
 */
class MixedOwnershipTest {

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final List<AxEngine> engines = new ArrayList<>();

    @AfterEach
    void stopAll() {
        engines.forEach(AxEngine::stop);
    }

    private AxEngine node(String id, Ownership ownership) {
        AxEngine e = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId(id)
                .ownership(ownership)
                .shutdownAwait(Duration.ofSeconds(1))
                .build();
        engines.add(e);
        return e;
    }

    @Test
    void aPartitionedNodeDoesNotStartBesideALeaderNode() {
        node("old", Ownership.LEADER).start();
        AxEngine fresh = node("new", Ownership.PARTITIONED);

        assertThatThrownBy(fresh::start)
                .isInstanceOf(MixedClusterProtocolException.class)
                .hasMessageContaining("Node new speaks AX cluster protocol " + ClusterProtocol.PARTITIONS_OWN)
                .hasMessageContaining("(protocol " + ClusterProtocol.LEADER_ASSIGNS + ")");
        assertThat(fresh.isRunning()).isFalse();
    }

    @Test
    void aLeaderNodeDoesNotStartBesideAPartitionedNode() {
        AxEngine owner = node("owner", Ownership.PARTITIONED);
        owner.start();
        AxEngine fresh = node("leader", Ownership.LEADER);

        assertThatThrownBy(fresh::start)
                .isInstanceOf(MixedClusterProtocolException.class)
                .hasMessageContaining("Node leader speaks AX cluster protocol " + ClusterProtocol.LEADER_ASSIGNS);
        assertThat(owner.partitions().orElseThrow().owned())
                .as("the running node keeps every partition")
                .hasSize(owner.partitions().orElseThrow().count());
    }
}
