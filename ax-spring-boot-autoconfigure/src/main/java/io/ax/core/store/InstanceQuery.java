package io.ax.core.store;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import java.time.Instant;

/**
 * What an operator searches instances by (see {@link InstanceStore#search}); every criterion is optional (null: any).
 * Matching instances come newest scheduled time first (ties by id, descending), one page at a time.
 *
 * @param taskName only this task's instances
 * @param state only instances in this state
 * @param from only instances scheduled at or after this time
 * @param to only instances scheduled before this time
 * @param offset how many matching instances to skip; at least 0
 * @param limit at most this many; at least 1
 */
public record InstanceQuery(String taskName, InstanceState state, Instant from, Instant to, int offset, int limit) {

    public InstanceQuery {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        if (from != null && to != null && from.isAfter(to)) {
            throw new IllegalArgumentException("from (" + from + ") is after to (" + to + ")");
        }
    }

    /** Whether an instance meets every criterion (not the paging). */
    public boolean matches(TaskInstance instance) {
        return (taskName == null || taskName.equals(instance.taskName()))
                && (state == null || state == instance.state())
                && (from == null || !instance.scheduledTime().isBefore(from))
                && (to == null || instance.scheduledTime().isBefore(to));
    }

    /** The same criteria, from the first match, for {@code offset + limit} of them: what to merge pages from. */
    public InstanceQuery fromStart() {
        return new InstanceQuery(
                taskName, state, from, to, 0, (int) Math.min(Integer.MAX_VALUE, (long) offset + limit));
    }
}
