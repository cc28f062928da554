package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.NewFire;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A decision's fence, put on the change or fire it writes: the leader's, a partition's, or none. */
class FenceTest {

    private static final Transition CHANGE = new Transition(
            "i-1", InstanceState.RUNNING, InstanceState.FAILED, 2, "n1", Instant.EPOCH, "gone", Instant.EPOCH);

    private static final NewFire FIRE = new NewFire(
            new TaskInstance(
                    "i-2",
                    "report",
                    Instant.EPOCH,
                    InstanceState.SCHEDULED,
                    0,
                    "n1",
                    Instant.EPOCH,
                    InstanceOrigin.SERIES,
                    TaskInstance.fireKey(Instant.EPOCH)),
            "fire");

    @Test
    void aLeadersDecisionCarriesItsEpochAsTheLeaderFence() {
        Fence fence = Fence.leader(4);

        Transition taken = fence.takenFrom(CHANGE, "dead", "n1");
        assertThat(taken.fence()).isEqualTo(4);
        assertThat(taken.partitionEpoch()).isZero();
        assertThat(taken.expectedOwner()).isEqualTo("dead");
        assertThat(taken.owner()).isEqualTo("n1");
        assertThat(fence.on(FIRE).partitionEpoch()).isZero(); // the write carries it, not the fire
        assertThat(fence.epoch()).isEqualTo(4);
        assertThat(fence.any()).isTrue();
    }

    @Test
    void aPartitionOwnersDecisionCarriesThePartitionsEpochAndNoLeaderFence() {
        Fence fence = Fence.partition(9);

        Transition assigned = fence.assignedTo(CHANGE, "n2");
        assertThat(assigned.fence()).isZero();
        assertThat(assigned.partitionEpoch()).isEqualTo(9);
        assertThat(assigned.owner()).isEqualTo("n2");
        Transition taken = fence.takenFrom(CHANGE, "dead", "n1");
        assertThat(taken.partitionEpoch()).isEqualTo(9);
        assertThat(taken.expectedOwner()).isEqualTo("dead");
        assertThat(fence.on(FIRE).partitionEpoch()).isEqualTo(9);
        assertThat(fence.epoch()).isEqualTo(9);
        assertThat(fence.leader()).isZero();
    }

    @Test
    void noEpochIsNoFence() {
        assertThat(Fence.leader(0)).isSameAs(Fence.NONE);
        assertThat(Fence.partition(0)).isSameAs(Fence.NONE);
        assertThat(Fence.NONE.any()).isFalse();
        assertThat(Fence.NONE.epoch()).isZero();
        assertThat(Fence.NONE.assignedTo(CHANGE, null).fence()).isZero();
        assertThatThrownBy(() -> new Fence(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
