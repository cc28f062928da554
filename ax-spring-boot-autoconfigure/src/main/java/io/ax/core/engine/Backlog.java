package io.ax.core.engine;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Instances that are due but have not started on this node: handed to a pool and waiting for a worker, or sent
 * back by a full pool and waiting to be dispatched again.
 *
 * @param perGroup how many, per execution pool; groups with none are left out
 * @param oldestAge how long the oldest of them has been due; zero when there is none
 */
public record Backlog(Map<String, Integer> perGroup, Duration oldestAge) {

    public Backlog {
        perGroup = Map.copyOf(perGroup);
        Objects.requireNonNull(oldestAge, "oldestAge");
    }

    /** How many over all groups. */
    public int total() {
        return perGroup.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** How many in {@code group}. */
    public int of(String group) {
        return perGroup.getOrDefault(group, 0);
    }
}
