package io.ax.bench.failover;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the nodes of a round did, as their handlers saw it, kept in this JVM (the store under test may lose its
 * last commits, so it cannot be the record): every handler start with its task, instance, scheduled time, node and
 * the monotonic time, and every delayed instance the store acknowledged. Thread-safe.
 */
final class FailoverLog {

    /** One handler start. */
    record Start(String task, String instanceId, Instant scheduled, String node, long nanos) {}

    private final List<Start> starts = new ArrayList<>();
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();

    synchronized void started(String task, String instanceId, Instant scheduled, String node) {
        starts.add(new Start(task, instanceId, scheduled, node, System.nanoTime()));
    }

    void acknowledged(String instanceId) {
        acknowledged.add(instanceId);
    }

    synchronized List<Start> starts() {
        return List.copyOf(starts);
    }

    /** The first handler start at or after {@code nanos}, or -1 when none came. */
    synchronized long firstStartAfter(long nanos) {
        long first = -1;
        for (Start s : starts) {
            if (s.nanos() - nanos >= 0 && (first < 0 || s.nanos() - first < 0)) {
                first = s.nanos();
            }
        }
        return first;
    }

    /** How many starts of {@code task} came after {@code nanos}. */
    synchronized long startsAfter(String task, long nanos) {
        return starts.stream()
                .filter(s -> s.task().equals(task) && s.nanos() - nanos >= 0)
                .count();
    }

    /**
     * Work that ran more than once, each by the instance id of its first start: a recurring task's fire time started
     * twice (under any instance id: a store that lost the first instance's row makes the fire again), or a delayed
     * instance started twice. The handlers return at once, so a second start always follows a first that succeeded.
     */
    synchronized Set<String> ranTwice() {
        Map<String, String> first = new HashMap<>();
        Set<String> twice = new java.util.HashSet<>();
        for (Start s : starts) {
            String key = s.task() + "@" + (s.scheduled() != null ? s.scheduled() : s.instanceId());
            String was = first.putIfAbsent(key, s.instanceId());
            if (was != null) {
                twice.add(was);
            }
        }
        return twice;
    }

    /** The acknowledged delayed instances that never started. */
    synchronized Set<String> neverStarted() {
        Set<String> out = new java.util.HashSet<>(acknowledged);
        for (Start s : starts) {
            out.remove(s.instanceId());
        }
        return out;
    }

    int acknowledgedCount() {
        return acknowledged.size();
    }
}
