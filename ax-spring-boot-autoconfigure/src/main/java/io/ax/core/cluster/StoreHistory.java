package io.ax.core.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one node knows the cluster store committed, to notice when the store went back in time (a failover to a
 * standby that had not received the last commits, an old primary back, a restore) or became another server. Each
 * reading is compared with the highest this node has seen before:
 *
 * <ul>
 *   <li>its own heartbeat, as read back after it was written: a store that holds an older one lost it;
 *   <li>the leader lease's epoch and every partition's epoch, which only grow: a lower one was lost;
 *   <li>the server's identity ({@link StoreIdentity}): another system is another store; an earlier timeline is an
 *       old primary. A later timeline, or another server of the same store, is a failover, which is not a loss by
 *       itself: a caught-up standby promoted keeps every commit, so the node is told to check what it committed
 *       lately ({@link Listener#failedOver}).
 * </ul>
 *
 * <p>None of these compares two clocks: each compares a value the store returned with a value it returns later, so a
 * clock that steps back makes no false alarm. Thread-safe: the heartbeat's and the partitions' threads both report.
 */
public final class StoreHistory {

    /** What the node hears; called on the thread that made the reading, outside this object's lock. */
    public interface Listener {

        /** The store lost writes this node knows were committed, or is another server: {@code findings} say which. */
        void wentBack(List<String> findings);

        /**
         * The store failed over without a loss this node can see by itself ({@code what} says how it noticed):
         * recent commits should be checked.
         */
        default void failedOver(String what) {}
    }

    private final Listener listener;

    /** Guards the fields below. */
    private final Object lock = new Object();

    private Instant ownHeartbeat;
    private long leaderEpoch;
    private final Map<Integer, Long> partitionEpochs = new TreeMap<>();
    private StoreIdentity.Reading identity;

    public StoreHistory(Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** This node's heartbeat as the store last returned it; null before the first. */
    public Instant ownHeartbeat() {
        synchronized (lock) {
            return ownHeartbeat;
        }
    }

    /**
     * The store returned this node's heartbeat, written in this round: the base of the next. Taken as it is, also
     * when it is older than the last (the database's clock stepped back): only this node writes its row, so what it
     * reads back after its write is what the row holds.
     */
    public void ownHeartbeatRead(Instant heartbeat) {
        if (heartbeat == null) {
            return;
        }
        synchronized (lock) {
            ownHeartbeat = heartbeat;
        }
    }

    /**
     * A heartbeat written only over one at least as recent as {@link #ownHeartbeat()} found an older one: the store
     * lost this node's last heartbeats. What it found is the new base, so the next heartbeat goes through.
     *
     * @return whether that was a loss (false when {@code found} is as recent, or there is no base)
     */
    public boolean ownHeartbeatFound(Instant found) {
        Instant known;
        synchronized (lock) {
            known = ownHeartbeat;
            if (known == null || found == null || !found.isBefore(known)) {
                return false;
            }
            ownHeartbeat = found;
        }
        listener.wentBack(List.of("this node's heartbeat went back from " + known + " to " + found
                + " (the store lost it, and what else was committed in those "
                + java.time.Duration.between(found, known).toMillis() + " ms)"));
        return true;
    }

    /** The leader lease's epoch, as read in this round. */
    public void leaderEpoch(long epoch) {
        long known;
        synchronized (lock) {
            known = leaderEpoch;
            leaderEpoch = Math.max(leaderEpoch, epoch);
        }
        if (epoch < known) {
            listener.wentBack(List.of("the leader epoch went back from " + known + " to " + epoch));
        }
    }

    /** The highest leader epoch this node has seen. */
    public long leaderEpochSeen() {
        synchronized (lock) {
            return leaderEpoch;
        }
    }

    /**
     * Every partition, as read in this round.
     *
     * @return false when an epoch went back: the round must not act on what it read
     */
    public boolean partitions(List<PartitionLease> read) {
        List<String> back = new ArrayList<>();
        synchronized (lock) {
            for (PartitionLease p : read) {
                Long known = partitionEpochs.get(p.partition());
                if (known != null && p.epoch() < known) {
                    back.add(p.partition() + " (" + known + " -> " + p.epoch() + ")");
                } else {
                    partitionEpochs.put(p.partition(), p.epoch());
                }
            }
        }
        if (back.isEmpty()) {
            return true;
        }
        listener.wentBack(List.of("partition epochs went back: " + shortList(back)));
        return false;
    }

    /** The highest epoch this node has seen of each partition: no epoch up to it may be granted again. */
    public Map<Integer, Long> partitionEpochsSeen() {
        synchronized (lock) {
            return Collections.unmodifiableMap(new TreeMap<>(partitionEpochs));
        }
    }

    /** The server's identity, as read in this round. */
    public void identity(StoreIdentity.Reading now) {
        if (now == null || now.equals(StoreIdentity.Reading.UNKNOWN)) {
            return;
        }
        StoreIdentity.Reading known;
        synchronized (lock) {
            known = identity;
            if (known == null || !now.equals(known)) {
                identity = now;
            }
        }
        if (known == null || now.equals(known)) {
            return;
        }
        if (known.system() != null && now.system() != null && !known.system().equals(now.system())) {
            listener.wentBack(List.of("the store is another server: system " + now.system() + ", was " + known.system()
                    + " (a new database, or a restore: what this node committed may be missing)"));
        } else if (now.timeline() < known.timeline()) {
            listener.wentBack(List.of("the store's timeline went back from " + known.timeline() + " to "
                    + now.timeline() + ": this is an earlier primary, without the commits of the later timeline"));
        } else if (now.timeline() > known.timeline()) {
            listener.failedOver("the store's timeline moved from " + known.timeline() + " to " + now.timeline()
                    + " (a standby was promoted)");
        } else if (known.server() != null
                && now.server() != null
                && !known.server().equals(now.server())) {
            listener.failedOver("the store is served by another server: " + now.server() + ", was " + known.server());
        }
    }

    /** The server's identity as last read; null before the first reading, or when the store tells none. */
    public StoreIdentity.Reading identity() {
        synchronized (lock) {
            return identity;
        }
    }

    /** The store answers again after calls to it failed: a failover may have happened meanwhile. */
    public void reconnected() {
        listener.failedOver("the store answers again after an outage");
    }

    private static String shortList(List<String> items) {
        int shown = Math.min(items.size(), 12);
        String head = String.join(", ", items.subList(0, shown));
        return shown == items.size() ? head : head + ", ... (" + items.size() + " in all)";
    }
}
