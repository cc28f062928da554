package io.ax.bench.cluster;

import io.ax.core.cluster.PartitionLease;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The partition table as one read saw it ({@link io.ax.jdbc.JdbcPartitionLeases#read}: every row, each owner's
 * liveness judged on the database's clock), and when that read returned on this JVM's monotonic clock. Immutable.
 *
 * @param nanos when the read returned ({@link System#nanoTime})
 * @param rows every partition, ordered by number
 * @param unchangedSince since when (same clock) no partition has changed owner, epoch or liveness, as far as the reads
 *     before this one saw
 */
record PartitionSnapshot(long nanos, List<PartitionLease> rows, long unchangedSince) {

    PartitionSnapshot {
        rows = List.copyOf(rows);
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).partition() != i) {
                throw new IllegalArgumentException(
                        "row " + i + " is partition " + rows.get(i).partition());
            }
        }
    }

    /** The first read: unchanged since it was made. */
    static PartitionSnapshot first(long nanos, List<PartitionLease> rows) {
        return new PartitionSnapshot(nanos, rows, nanos);
    }

    /** The read after {@code this}: unchanged since this one's time unless some partition changed. */
    PartitionSnapshot next(long nanos, List<PartitionLease> rows) {
        return new PartitionSnapshot(nanos, rows, sameOwnership(rows) ? unchangedSince : nanos);
    }

    private boolean sameOwnership(List<PartitionLease> other) {
        if (other.size() != rows.size()) {
            return false;
        }
        for (int i = 0; i < rows.size(); i++) {
            PartitionLease a = rows.get(i);
            PartitionLease b = other.get(i);
            if (a.epoch() != b.epoch()
                    || a.ownerAlive() != b.ownerAlive()
                    || !Objects.equals(a.owner(), b.owner())
                    || !Objects.equals(a.incarnation(), b.incarnation())) {
                return false;
            }
        }
        return true;
    }

    int count() {
        return rows.size();
    }

    /** The partitions {@code node} owns, alive or not, with the epoch of each. */
    Map<Integer, Long> ownedBy(String node) {
        Map<Integer, Long> out = new TreeMap<>();
        for (PartitionLease p : rows) {
            if (node.equals(p.owner())) {
                out.put(p.partition(), p.epoch());
            }
        }
        return out;
    }

    /** How many partitions each live owner holds. */
    Map<String, Integer> loads() {
        Map<String, Integer> out = new TreeMap<>();
        for (PartitionLease p : rows) {
            if (p.owner() != null && p.ownerAlive()) {
                out.merge(p.owner(), 1, Integer::sum);
            }
        }
        return out;
    }

    /**
     * Whether every partition is owned by a live node of {@code nodes} and each of them owns its share, the count
     * divided by theirs give or take one: what the plan reaches when every node counts them all.
     */
    boolean balancedOver(Collection<String> nodes) {
        Set<String> members = new TreeSet<>(nodes);
        if (members.isEmpty()) {
            return false;
        }
        for (PartitionLease p : rows) {
            if (p.owner() == null || !p.ownerAlive() || !members.contains(p.owner())) {
                return false;
            }
        }
        int low = rows.size() / members.size();
        int high = low + (rows.size() % members.size() == 0 ? 0 : 1);
        Map<String, Integer> loads = loads();
        for (String n : members) {
            int load = loads.getOrDefault(n, 0);
            if (load < low || load > high) {
                return false;
            }
        }
        return true;
    }

    /** Whether nothing has changed for at least {@code quietNanos} up to this read. */
    boolean quietFor(long quietNanos) {
        return nanos - unchangedSince >= quietNanos;
    }

    /**
     * Whether every partition of {@code lost} (partition to the epoch it had when its owner {@code gone} left) is
     * owned now by another live node at a higher epoch.
     */
    boolean takenOver(String gone, Map<Integer, Long> lost) {
        for (Map.Entry<Integer, Long> e : lost.entrySet()) {
            PartitionLease p = rows.get(e.getKey());
            if (p.owner() == null || !p.ownerAlive() || p.owner().equals(gone) || p.epoch() <= e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * When (this JVM's monotonic nanos) the earliest of {@code owned} that is given up and not yet taken again was
     * given up: its move time on the database's clock, as an age at this read; empty when none is.
     *
     * @param owned partition to the epoch it had while its owner held it
     */
    java.util.OptionalLong givenUpAt(Map<Integer, Long> owned) {
        java.util.OptionalLong earliest = java.util.OptionalLong.empty();
        for (Map.Entry<Integer, Long> e : owned.entrySet()) {
            PartitionLease p = rows.get(e.getKey());
            if (p.owner() == null && p.epoch() == e.getValue()) {
                long at = nanos - p.sinceMove().toNanos();
                if (earliest.isEmpty() || at < earliest.getAsLong()) {
                    earliest = java.util.OptionalLong.of(at);
                }
            }
        }
        return earliest;
    }

    /** The partitions that moved between {@code before} and {@code after}: their epoch grew (a move and back too). */
    static Set<Integer> moved(PartitionSnapshot before, PartitionSnapshot after) {
        if (before.count() != after.count()) {
            throw new IllegalArgumentException(
                    "the snapshots have " + before.count() + " and " + after.count() + " partitions");
        }
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < before.count(); i++) {
            if (after.rows.get(i).epoch() != before.rows.get(i).epoch()) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * The partitions that moved more than once between {@code before} and {@code after}: their epoch grew by two or
     * more (a take and a hand-over on to a third node, or to and fro). A planned move is a release, which keeps the
     * epoch, and a take, which raises it by one.
     */
    static Set<Integer> movedMoreThanOnce(PartitionSnapshot before, PartitionSnapshot after) {
        Set<Integer> out = new TreeSet<>();
        for (int i : moved(before, after)) {
            if (after.rows.get(i).epoch() - before.rows.get(i).epoch() >= 2) {
                out.add(i);
            }
        }
        return out;
    }
}
