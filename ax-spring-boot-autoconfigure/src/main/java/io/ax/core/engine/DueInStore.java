package io.ax.core.engine;

import java.time.Duration;
import java.time.Instant;

/**
 * The instances the store held SCHEDULED and due when last read, whichever node loaded them or none: the backlog of
 * the cluster, which health, metrics and the console show beside what this node holds. Read in the background (never
 * on a probe's thread), every few seconds while someone asks.
 *
 * @param count how many (a paused task's left out), counted up to a cap
 * @param capped whether there were more than {@code count}
 * @param oldestDue when the earliest of them fell due; null when none was due
 * @param oldestDueHere when the earliest of those in this node's partitions fell due; null when none of them was due
 *     (or the node owned no partition)
 * @param readAt when the store answered, on the engine's clock
 */
public record DueInStore(long count, boolean capped, Instant oldestDue, Instant oldestDueHere, Instant readAt) {

    /** How long the earliest of them had been due when read: the cluster's lag in the store; zero when none was due. */
    public Duration oldestAge() {
        return age(oldestDue);
    }

    /** How long the earliest of this node's partitions had been due when read: its lag in the store. */
    public Duration oldestAgeHere() {
        return age(oldestDueHere);
    }

    private Duration age(Instant due) {
        if (due == null) {
            return Duration.ZERO;
        }
        Duration age = Duration.between(due, readAt);
        return age.isNegative() ? Duration.ZERO : age;
    }
}
