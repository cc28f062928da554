package io.ax.redis;

import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The Redis primaries (by replication id) that this node's locks may be taken on, and from when. A primary new to
 * this node may have lost locks (it was promoted from a replica that missed them, or restarted without them): their
 * holders are told at the latest when their lease runs out, a lock's ttl after the last renewal the old primary saw.
 * So no lock is taken on it until a ttl after it was first seen, which comes after that renewal. A primary seen first
 * that was never promoted ({@code master_replid2} all zeros) and has run for a ttl already lost nothing its holders do
 * not know of, and is used at once. Thread-safe.
 */
final class LockEras {

    private static final System.Logger LOG = Loggers.get(LockEras.class.getName());

    /** How many primaries are remembered: a Redis Cluster's shards, and the ones before them. */
    private static final int REMEMBERED = 64;

    private static final String NEVER_PROMOTED = "0000000000000000000000000000000000000000";

    private final long ttlNanos;
    private final LongSupplier nanoTime;

    /** Replication id -> the monotonic time from which locks are taken on it; oldest first. Guarded by this. */
    private final Map<String, Long> usableFrom = new LinkedHashMap<>();

    LockEras(Duration ttl, LongSupplier nanoTime) {
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    /** The primaries locks may be taken on now, joined by commas (a script looks the one it runs on up in it). */
    synchronized String usable() {
        long now = nanoTime.getAsLong();
        StringBuilder ids = new StringBuilder();
        usableFrom.forEach((id, from) -> {
            if (now - from >= 0) {
                ids.append(ids.isEmpty() ? "" : ",").append(id);
            }
        });
        return ids.toString();
    }

    /**
     * A script found a primary this node may not take locks on yet.
     *
     * @return the time until locks may be taken on it; zero when at once
     */
    synchronized Duration seen(String replid, String replid2, long uptimeSeconds) {
        long now = nanoTime.getAsLong();
        Long from = usableFrom.get(replid);
        if (from == null) {
            boolean settled = NEVER_PROMOTED.equals(replid2)
                    && Duration.ofSeconds(uptimeSeconds).toNanos() >= ttlNanos;
            from = settled ? now : now + ttlNanos;
            usableFrom.put(replid, from);
            if (!settled) {
                LOG.log(
                        Level.INFO,
                        "Redis primary {0} is new to AX''s locks, and it failed over or restarted lately (a lock its"
                                + " holder is not told of yet may be lost): no lock is taken on it for {1} ms",
                        replid,
                        ttlNanos / 1_000_000);
            }
            if (usableFrom.size() > REMEMBERED) {
                usableFrom.remove(usableFrom.keySet().iterator().next());
            }
        }
        return Duration.ofNanos(Math.max(0, from - now));
    }

    /** The ids remembered; for tests. */
    synchronized List<String> known() {
        return List.copyOf(usableFrom.keySet());
    }
}
