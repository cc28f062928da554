package io.ax.core.cluster;

import io.ax.core.clock.AxClock;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The partitions this node owns, each at the epoch it took it with, and until when it may act on them. A node owns
 * its partitions for as long as its heartbeat is fresh on the store's clock, so its right to decide for any of them
 * ends, on its own monotonic clock, when the others may start taking it for dead: the send time of its last heartbeat
 * that went through, plus the lease, less the safety margin (as for the leader lease). Past that deadline {@link
 * #epoch} answers 0 for every partition, whatever a call to the store hangs in, until a heartbeat goes through again.
 *
 * <p>Written on the cluster thread (the rounds of {@link PartitionOwnership}), read on any. Thread-safe.
 */
public final class PartitionTerms {

    private final AxClock clock;
    private final int count;
    /** Partition -> the epoch this node owns it at. */
    private final ConcurrentHashMap<Integer, Long> owned = new ConcurrentHashMap<>();

    private volatile long decideUntilNanos;
    /** Whether any heartbeat went through yet: before the first, no deadline is known and nothing is decided. */
    private volatile boolean contacted;

    private volatile Map<String, Integer> perNode = Map.of();
    private final AtomicLong gained = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();

    /**
     * @param clock the monotonic clock the deadline is kept on
     * @param count the cluster's partition count
     */
    public PartitionTerms(AxClock clock, int count) {
        this.clock = clock;
        this.count = count;
    }

    /** The cluster's partition count. */
    public int count() {
        return count;
    }

    /**
     * The epoch to fence this node's decisions for {@code partition} with: the one it owns it at, while its right to
     * decide lasts; 0 when it does not own the partition, or its heartbeat is too old.
     */
    public long epoch(int partition) {
        Long epoch = owned.get(partition);
        return epoch == null || !decides() ? 0 : epoch;
    }

    /** Whether this node's last heartbeat is recent enough for it to act on the partitions it owns. */
    public boolean decides() {
        return contacted && clock.nanoTime() - decideUntilNanos < 0;
    }

    /** The partitions this node owns now, by number, with the epoch of each (whether or not it may decide now). */
    public Map<Integer, Long> owned() {
        return Collections.unmodifiableMap(new TreeMap<>(owned));
    }

    /** The partitions this node owns as ranges, {@code 0-3, 7}; empty when it owns none. */
    public String ownedRanges() {
        String ranges = PartitionOwnership.ranges(owned.keySet());
        return ranges.substring(1, ranges.length() - 1);
    }

    /** How many partitions each live owner held at the last round, by node id. */
    public Map<String, Integer> perNode() {
        return perNode;
    }

    /** How many partitions this node has taken since it started. */
    public long gained() {
        return gained.get();
    }

    /** How many partitions this node has given up or lost since it started. */
    public long lost() {
        return lost.get();
    }

    /**
     * A write fenced by {@code partition} at {@code epoch} was refused: the partition moved. This node stops deciding
     * for it now, unless it already owns it again at a later epoch; its next ownership round hears of the move.
     */
    public void fencedOut(int partition, long epoch) {
        if (owned.remove(partition, epoch)) {
            lost.incrementAndGet();
        }
    }

    // ---- written by the cluster thread --------------------------------------------------------------------------

    void gain(int partition, long epoch) {
        owned.put(partition, epoch);
        gained.incrementAndGet();
    }

    void lose(int partition) {
        if (owned.remove(partition) != null) {
            lost.incrementAndGet();
        }
    }

    /** A heartbeat sent at {@code sentNanos} went through: this node may decide until {@code untilNanos}. */
    void reached(long untilNanos) {
        decideUntilNanos = untilNanos;
        contacted = true;
    }

    void owners(Map<String, Integer> counts) {
        perNode = Collections.unmodifiableMap(new TreeMap<>(counts));
    }
}
