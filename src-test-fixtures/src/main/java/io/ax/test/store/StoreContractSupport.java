package io.ax.test.store;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InstanceStore;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;

/** The store under test and the instances the contract suites build; see {@link InstanceStoreContract}. */
abstract class StoreContractSupport {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    protected InstanceStore store;

    /** A new, empty store. */
    protected abstract InstanceStore newStore();

    @BeforeEach
    void freshStore() {
        store = newStore();
    }

    /** A trigger's fire, keyed by its time, in state CREATED. */
    static TaskInstance created(String task, Instant at) {
        return new TaskInstance(UUID.randomUUID().toString(), task, at, InstanceState.CREATED, 0, "n1", T0);
    }

    /** A trigger's fire, keyed by its time, ready for {@link InstanceStore#schedule}. */
    static TaskInstance scheduled(String task, Instant at) {
        return new TaskInstance(UUID.randomUUID().toString(), task, at, InstanceState.SCHEDULED, 0, "n1", T0);
    }

    /** A run outside the task's series ({@code triggerNow}): no key, so it never meets another instance. */
    static TaskInstance onDemand(String task, Instant at) {
        return of(UUID.randomUUID().toString(), task, at, InstanceOrigin.ON_DEMAND, null);
    }

    /** A delayed task with a caller's key, or none. */
    static TaskInstance delayed(String task, Instant at, String key) {
        return of(UUID.randomUUID().toString(), task, at, InstanceOrigin.DELAYED, key);
    }

    static TaskInstance of(String id, String task, Instant at, InstanceOrigin origin, String key) {
        return new TaskInstance(id, task, at, InstanceState.SCHEDULED, 0, "n1", T0, origin, key);
    }

    static Transition move(String id, InstanceState from, InstanceState to) {
        return new Transition(id, from, to, 1, "n1", T0, from + " to " + to);
    }

    /** Like {@link #move}, only while the instance is due at {@code dueAt}. */
    static Transition moveIfDue(String id, InstanceState from, InstanceState to, Instant dueAt) {
        return new Transition(id, from, to, 1, "n1", T0, from + " to " + to, dueAt);
    }

    /** The current state of an instance the store must know. */
    InstanceState state(String id) {
        return store.find(id).orElseThrow().state();
    }

    /** The states an instance's audit trail went through, oldest first. */
    List<InstanceState> trail(String id) {
        return store.auditTrail(id).stream().map(AuditEntry::to).toList();
    }

    /** The shortest path of states from CREATED (exclusive) to {@code target} (inclusive). */
    static List<InstanceState> pathTo(InstanceState target) {
        return switch (target) {
            case CREATED -> List.of();
            case SCHEDULED -> List.of(InstanceState.SCHEDULED);
            case DISPATCHED -> List.of(InstanceState.SCHEDULED, InstanceState.DISPATCHED);
            case RUNNING -> List.of(InstanceState.SCHEDULED, InstanceState.DISPATCHED, InstanceState.RUNNING);
            case FAILED, TIMEOUT, SUCCESS ->
                List.of(InstanceState.SCHEDULED, InstanceState.DISPATCHED, InstanceState.RUNNING, target);
            case RETRYING, DEAD ->
                List.of(
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        target);
            case CANCELLED, SKIPPED -> List.of(InstanceState.SCHEDULED, target);
        };
    }
}
