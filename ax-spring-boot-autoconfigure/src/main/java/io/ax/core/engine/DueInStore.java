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
 * @param readAt when the store answered, on the engine's clock
 */
public record DueInStore(long count, boolean capped, Instant oldestDue, Instant readAt) {

    /** How long the earliest of them has been due at {@code now}; zero when none was due. */
    public Duration oldestAge(Instant now) {
        if (oldestDue == null) {
            return Duration.ZERO;
        }
        Duration age = Duration.between(oldestDue, now);
        return age.isNegative() ? Duration.ZERO : age;
    }
}
