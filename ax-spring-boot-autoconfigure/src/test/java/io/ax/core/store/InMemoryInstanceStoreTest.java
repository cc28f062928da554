package io.ax.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.test.store.InstanceStoreContract;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InMemoryInstanceStoreTest extends InstanceStoreContract {

    @Override
    protected InstanceStore newStore() {
        return new InMemoryInstanceStore();
    }

    @Test
    void forgetsTheOldestFinishedInstancesButNeverUnfinishedOnes() {
        InMemoryInstanceStore small = new InMemoryInstanceStore(2);
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        TaskInstance pending = new TaskInstance("pending", "job", t, InstanceState.CREATED, 0, "n", t);
        small.create(pending, "");
        for (int i = 0; i < 5; i++) {
            TaskInstance done =
                    new TaskInstance("done-" + i, "job", t.plusSeconds(i + 1), InstanceState.CREATED, 0, "n", t);
            small.create(done, "");
            small.transition(new Transition(done.id(), InstanceState.CREATED, InstanceState.SCHEDULED, 0, "n", t, ""));
            small.transition(new Transition(done.id(), InstanceState.SCHEDULED, InstanceState.SKIPPED, 0, "n", t, ""));
        }
        assertThat(small.all()).extracting(TaskInstance::id).containsExactlyInAnyOrder("pending", "done-3", "done-4");
        assertThat(small.auditTrail("done-0")).isEmpty();
    }
}
