package io.ax.core.engine.work;

import io.ax.core.Transition;
import io.ax.core.engine.writes.StateWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Changes handed to a writer together, so that they reach the store in as few group writes as it takes, then each
 * waited for. A change's failure (the store refused, or the engine stops) is kept rather than thrown at once, so that
 * the caller follows up every change that did apply before it reports the failure.
 */
final class GroupWrite {

    private final boolean[] applied;
    private RuntimeException failure;

    private GroupWrite(int size) {
        this.applied = new boolean[size];
    }

    /** Hands {@code changes} to {@code writer} and waits for every one of them. */
    static GroupWrite of(StateWriter writer, List<Transition> changes) {
        GroupWrite group = new GroupWrite(changes.size());
        List<CompletableFuture<Boolean>> outcomes = writer.submitAllOrFail(changes);
        for (int i = 0; i < outcomes.size(); i++) {
            try {
                group.applied[i] = writer.outcome(outcomes.get(i), changes.get(i));
            } catch (RuntimeException e) {
                if (group.failure == null) {
                    group.failure = e;
                }
            }
        }
        return group;
    }

    /** Whether the {@code i}th change applied (false: the instance was elsewhere, or the write failed). */
    boolean applied(int i) {
        return applied[i];
    }

    /** Throws the first failure, if a change failed. */
    void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }
}
