package io.ax.core.cluster;

import io.ax.core.AxException;

/**
 * A fenced write was rejected because its epoch is no longer current: another node took the lease over, or the
 * partition the write was fenced on moved to another owner. Nothing of the rejected write was applied; the writer
 * must stop deciding at once, for the leader's term or for that partition ({@link #partition()}).
 */
public final class FencedOutException extends AxException {

    /** {@link #partition()} of a write fenced by the leader's epoch. */
    public static final int LEADER = -1;

    /**
     * {@link #partition()} of a write fenced by a partition's epoch on a row that has no partition yet (written before
     * the store knew the count, until {@link io.ax.core.store.InstanceStore#fillPartitions} gives it one): no
     * partition moved, the row is in none that a writer can own.
     */
    public static final int NO_PARTITION = -2;

    private final int partition;
    private final long epoch;

    /** A leader's write rejected: {@code epoch} is no longer the leader's. */
    public FencedOutException(long epoch) {
        super("Write rejected: leader epoch " + epoch + " is no longer current (another node took over)");
        this.partition = LEADER;
        this.epoch = epoch;
    }

    /**
     * A write fenced by a partition's epoch rejected: {@code partition} is no longer at {@code epoch}.
     *
     * @param partition the partition of the row written, or {@link #NO_PARTITION} when the row has none
     * @throws IllegalArgumentException when {@code partition} is below 0 and not {@link #NO_PARTITION}
     */
    public FencedOutException(int partition, long epoch) {
        super(
                partition == NO_PARTITION
                        ? "Write rejected: fenced by partition epoch " + epoch + ", the row has no partition yet"
                        : "Write rejected: partition " + partition + " epoch " + epoch
                                + " is no longer current (another node took it over)");
        if (partition < 0 && partition != NO_PARTITION) {
            throw new IllegalArgumentException("a partition is 0 or more, was " + partition);
        }
        this.partition = partition;
        this.epoch = epoch;
    }

    /** The stale epoch the write carried: the leader's, or the partition's. */
    public long epoch() {
        return epoch;
    }

    /**
     * The partition whose epoch the write was fenced on: 0 or more; {@link #LEADER} (-1) for the leader's epoch;
     * {@link #NO_PARTITION} (-2) for a row without a partition.
     */
    public int partition() {
        return partition;
    }
}
