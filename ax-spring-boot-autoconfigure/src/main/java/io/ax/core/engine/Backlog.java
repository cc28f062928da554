package io.ax.core.engine;

import java.time.Duration;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Instances that are due but have not started on this node: handed to a pool and waiting for a worker, or sent
 * back by a full pool and waiting to be dispatched again.
 *
 * @param perGroup how many, per execution pool; groups with none are left out
 * @param perPriority how many, per priority over all pools, highest first; priorities with none are left out
 * @param oldestAge how long the oldest of them has been due; zero when there is none
 */
public record Backlog(Map<String, Integer> perGroup, Map<Integer, Integer> perPriority, Duration oldestAge) {

    public Backlog {
        perGroup = Map.copyOf(perGroup);
        TreeMap<Integer, Integer> highestFirst = new TreeMap<>(Comparator.reverseOrder());
        highestFirst.putAll(perPriority);
        perPriority = Collections.unmodifiableMap(highestFirst);
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
