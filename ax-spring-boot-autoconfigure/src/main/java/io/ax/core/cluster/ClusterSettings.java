package io.ax.core.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * How a node takes part in the cluster. Validated together, because some values only work in relation to others:
 * the lease must outlive two heartbeats (one renewal may fail without losing it), an assignment (written by earlier
 * versions only) must be acknowledged well before a dead owner's lease runs out, and an owner must follow what
 * other nodes hold of its partitions more often than it waits for such an acknowledgement.
 *
 * @param heartbeat how often a node writes its heartbeat and the leader renews its lease
 * @param lease how long a lease or heartbeat lasts without renewal; a node silent for longer is dead
 * @param ackTimeout how long the leader waits for an assignment's acknowledgement before it takes it back
 * @param pollInterval how often a node looks for new assignments (when no wake-up signal tells it sooner)
 * @param virtualNodes points per node on the consistent-hash ring
 * @param partitions how many partitions the cluster's work is divided into; fixed for the life of a database (the
 *     first node records it, and a node configured otherwise does not start)
 */
public record ClusterSettings(
        Duration heartbeat,
        Duration lease,
        Duration ackTimeout,
        Duration pollInterval,
        int virtualNodes,
        int partitions) {

    /** The partition count when none is configured. */
    public static final int DEFAULT_PARTITIONS = 256;

    /** Settings with the default partition count. */
    public ClusterSettings(
            Duration heartbeat, Duration lease, Duration ackTimeout, Duration pollInterval, int virtualNodes) {
        this(heartbeat, lease, ackTimeout, pollInterval, virtualNodes, DEFAULT_PARTITIONS);
    }

    public ClusterSettings {
        positive(heartbeat, "ax.cluster.heartbeat");
        positive(lease, "ax.cluster.lease");
        positive(ackTimeout, "ax.cluster.ack-timeout");
        positive(pollInterval, "ax.cluster.poll-interval");
        if (lease.compareTo(heartbeat.multipliedBy(2)) <= 0) {
            throw new IllegalArgumentException("ax.cluster.lease (" + lease + ") must be more than twice"
                    + " ax.cluster.heartbeat (" + heartbeat + "), so that one missed renewal does not lose it");
        }
        if (ackTimeout.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("ax.cluster.ack-timeout (" + ackTimeout + ") must be below"
                    + " ax.cluster.lease (" + lease + "): an unacknowledged assignment is taken back before its"
                    + " owner would be declared dead anyway");
        }
        if (pollInterval.compareTo(ackTimeout) > 0) {
            throw new IllegalArgumentException("ax.cluster.poll-interval (" + pollInterval + ") must not be above"
                    + " ax.cluster.ack-timeout (" + ackTimeout + "), or nodes find their assignments only after the"
                    + " leader has taken them back");
        }
        if (virtualNodes < 1 || virtualNodes > 4096) {
            throw new IllegalArgumentException(
                    "ax.cluster.virtual-nodes must be between 1 and 4096, was " + virtualNodes);
        }
        if (partitions < 1 || partitions > PartitionLeases.MAX_PARTITIONS) {
            throw new IllegalArgumentException("ax.cluster.partitions must be between 1 and "
                    + PartitionLeases.MAX_PARTITIONS + ", was " + partitions);
        }
    }

    /**
     * Heartbeat 3 s, lease 10 s, acknowledgement within 3 s, what other nodes hold followed every 500 ms, 32 points,
     * 256 partitions.
     */
    public static ClusterSettings defaults() {
        return new ClusterSettings(
                Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ofMillis(500), 32);
    }

    /** How much of its lease a leader keeps in hand: it stops deciding this long before the lease ends. */
    public Duration safetyMargin() {
        Duration third = heartbeat.dividedBy(3);
        Duration atMost = lease.dividedBy(5);
        return third.compareTo(atMost) > 0 ? atMost : third;
    }

    /** The same settings with another partition count. */
    public ClusterSettings withPartitions(int count) {
        return new ClusterSettings(heartbeat, lease, ackTimeout, pollInterval, virtualNodes, count);
    }

    private static void positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
