package io.ax.core.store;

import java.time.Instant;

/**
 * The instances a store holds SCHEDULED and due, whether or not a node has loaded them: what health, metrics and the
 * console show as the backlog of the cluster. A paused task's instances are left out (they wait for its resume).
 *
 * @param count how many, counted up to a cap
 * @param capped whether there are more than {@code count} (the count stopped at its cap)
 * @param oldest when the earliest of them fell due; null when there is none
 */
public record DueCount(long count, boolean capped, Instant oldest) {

    /** None due. */
    public static final DueCount NONE = new DueCount(0, false, null);

    public DueCount {
        if (count < 0) {
            throw new IllegalArgumentException("a count is 0 or more, was " + count);
        }
    }

    /** Both counts together: two stores' instances, say. */
    public DueCount plus(DueCount other) {
        Instant first = oldest == null
                ? other.oldest
                : other.oldest == null || oldest.isBefore(other.oldest) ? oldest : other.oldest;
        return new DueCount(count + other.count, capped || other.capped, first);
    }
}
