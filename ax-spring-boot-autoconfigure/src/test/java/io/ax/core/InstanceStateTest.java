package io.ax.core;

import static io.ax.core.InstanceState.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class InstanceStateTest {

    @Test
    void theTableHoldsExactlyTheArrowsOfTheDesign() {
        assertThat(CREATED.successors()).containsExactlyInAnyOrder(SCHEDULED, SKIPPED);
        assertThat(SCHEDULED.successors()).containsExactlyInAnyOrder(RUNNING, DISPATCHED, CANCELLED, SKIPPED);
        assertThat(DISPATCHED.successors()).containsExactlyInAnyOrder(RUNNING, SCHEDULED);
        assertThat(RUNNING.successors()).containsExactlyInAnyOrder(SUCCESS, FAILED, TIMEOUT, SCHEDULED);
        assertThat(FAILED.successors()).containsExactlyInAnyOrder(RETRYING, DEAD);
        assertThat(TIMEOUT.successors()).containsExactlyInAnyOrder(RETRYING, DEAD);
        assertThat(RETRYING.successors()).containsExactlyInAnyOrder(RUNNING, DISPATCHED, CANCELLED);
        assertThat(DEAD.successors()).containsExactlyInAnyOrder(RETRYING);
    }

    @Test
    void finalStatesHaveNoWayOutButAReplayOfTheDead() {
        EnumSet<InstanceState> finals = EnumSet.noneOf(InstanceState.class);
        for (InstanceState s : values()) {
            if (s.isFinal()) {
                finals.add(s);
            }
        }
        assertThat(finals).containsExactlyInAnyOrder(SUCCESS, DEAD, CANCELLED, SKIPPED);
        for (InstanceState s : finals) {
            assertThat(s.successors()).as(s.name()).isSubsetOf(RETRYING);
        }
        assertThat(SUCCESS.successors()).isEmpty();
        assertThat(CANCELLED.successors()).isEmpty();
        assertThat(SKIPPED.successors()).isEmpty();
    }

    @Test
    void aTransitionAgainstTheArrowsIsAnError() {
        assertThatThrownBy(() -> new Transition("i-1", SUCCESS, RUNNING, 1, "n", Instant.EPOCH, ""))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("i-1")
                .hasMessageContaining("SUCCESS -> RUNNING");
        assertThatThrownBy(() -> new Transition("i-1", RUNNING, RUNNING, 1, "n", Instant.EPOCH, ""))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void theTableCannotBeChangedFromOutside() {
        assertThatThrownBy(() -> CREATED.successors().add(SUCCESS)).isInstanceOf(UnsupportedOperationException.class);
    }
}
