package io.ax.bench.cluster;

import io.ax.core.cluster.PartitionLease;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * How long partitions went without a live owner, from the partition table read again and again ({@link
 * #observe}). A partition has no live owner from the moment its owner gave it up (the row's move time, on the
 * database's clock, as an age at the read), or was killed ({@link #killed}: the database still takes it for alive
 * until its heartbeat is older than the lease), or is first seen with an owner the database takes for dead; until
 * a read shows it owned by a live node that was not killed. Times are this JVM's monotonic nanos.
 *
 * <p>Not thread-safe: one thread observes (the watch's), and the others read its totals under the watch's lock.
 */
final class OwnerlessSpans {

    private final long boundNanos;
    /** Partition to since when it has had no live owner. */
    private final Map<Integer, Long> since = new HashMap<>();

    private final Set<String> killed = new HashSet<>();
    private long longestNanos;
    private int spans;
    private int overBound;

    /** @param boundNanos a span longer than this is counted apart (lease + heartbeat) */
    OwnerlessSpans(long boundNanos) {
        this.boundNanos = boundNanos;
    }

    /**
     * {@code node} was killed at {@code nanos}: each partition it owns in {@code last} (the latest read before the
     * kill) has had no live owner since then.
     */
    void killed(String node, long nanos, PartitionSnapshot last) {
        killed.add(node);
        for (int p : last.ownedBy(node).keySet()) {
            since.putIfAbsent(p, nanos);
        }
    }

    /** One read: opens a span for each partition without a live owner, closes it for each owned again. */
    void observe(PartitionSnapshot s) {
        for (PartitionLease p : s.rows()) {
            boolean owned = p.owner() != null && p.ownerAlive() && !killed.contains(p.owner());
            Long from = since.get(p.partition());
            if (!owned && from == null) {
                // given up: since its move time; a dead owner's (not one this benchmark killed): since now
                long start = p.owner() == null ? s.nanos() - p.sinceMove().toNanos() : s.nanos();
                since.put(p.partition(), start);
            } else if (owned && from != null) {
                since.remove(p.partition());
                long span = Math.max(0, s.nanos() - from);
                longestNanos = Math.max(longestNanos, span);
                spans++;
                if (span > boundNanos) {
                    overBound++;
                }
            }
        }
    }

    /** The longest span closed so far, or still open at {@code nowNanos}, in nanos. */
    long longestNanos(long nowNanos) {
        long longest = longestNanos;
        for (long from : since.values()) {
            longest = Math.max(longest, nowNanos - from);
        }
        return longest;
    }

    /** Spans closed so far: each a partition that had no live owner for a while and has one again. */
    int spans() {
        return spans;
    }

    /** Spans closed so far that lasted longer than the bound. */
    int overBound() {
        return overBound;
    }

    /** Partitions without a live owner at the latest read. */
    int open() {
        return since.size();
    }
}
