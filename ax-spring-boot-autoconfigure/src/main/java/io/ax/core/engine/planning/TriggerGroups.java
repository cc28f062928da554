package io.ax.core.engine.planning;

import io.ax.core.engine.threads.Due;
import io.ax.core.trigger.Trigger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tasks that share a trigger share one wheel entry per fire time: the first instance for a (trigger, fire time)
 * opens a batch that the caller puts into the wheel; later ones join it; the batch fires as one. Thread-safe: a
 * batch is changed only inside {@link ConcurrentHashMap#compute} on its key, and once taken it is closed, so an
 * instance added concurrently lands in a fresh batch instead of being lost.
 */
final class TriggerGroups {

    private record Key(Trigger trigger, Instant fireTime) {}

    /** A batch of instances due at the same time by the same trigger. */
    static final class Batch {
        private final Key key;
        private final List<Due> dues = new ArrayList<>(2);
        /** The batch's wheel entry, set by whoever opened it; 0 until then (a handle no wheel entry has). */
        volatile long timer;

        private Batch(Key key) {
            this.key = key;
        }
    }

    /**
     * Stands for the batch of an instance that is joining one right now: no batch of the wheel, and never fired or
     * changed.
     */
    static final Batch JOINING = new Batch(null);

    /** What {@link #add} did: the batch {@code due} joined, and whether this call opened it. */
    record Added(Batch batch, boolean opened) {}

    private final ConcurrentHashMap<Key, Batch> open = new ConcurrentHashMap<>();

    /** Adds {@code due}; a batch this call opened must be put into the wheel by the caller. */
    Added add(Trigger trigger, Instant fireTime, Due due) {
        boolean[] opened = new boolean[1];
        Batch joined = open.compute(new Key(trigger, fireTime), (k, batch) -> {
            if (batch == null) {
                batch = new Batch(k);
                opened[0] = true;
            }
            batch.dues.add(due);
            return batch;
        });
        return new Added(joined, opened[0]);
    }

    /**
     * Takes one instance out of a batch that has not fired yet; true when that left the batch empty (its wheel
     * entry is then of no use). Does nothing once the batch was taken.
     */
    boolean remove(Batch batch, String instanceId) {
        boolean[] emptied = new boolean[1];
        open.computeIfPresent(batch.key, (k, current) -> {
            if (current != batch) {
                return current;
            }
            for (int i = 0; i < current.dues.size(); i++) {
                if (current.dues.get(i).instanceId().equals(instanceId)) {
                    current.dues.remove(i); // it is there once: a second enqueue of it does not join
                    break;
                }
            }
            emptied[0] = current.dues.isEmpty();
            return emptied[0] ? null : current;
        });
        return emptied[0];
    }

    /** Closes {@code batch} and returns its instances; empty if it was already taken. */
    List<Due> take(Batch batch) {
        List<Due> taken = new ArrayList<>();
        open.computeIfPresent(batch.key, (k, current) -> {
            if (current != batch) {
                return current;
            }
            taken.addAll(current.dues);
            return null;
        });
        return taken;
    }

    /** The instances of the open batches that {@code which} picks, by id. */
    List<String> instancesOf(java.util.function.Predicate<Due> which) {
        List<String> ids = new ArrayList<>();
        for (Key key : open.keySet()) {
            open.computeIfPresent(key, (k, batch) -> {
                for (Due due : batch.dues) {
                    if (which.test(due)) {
                        ids.add(due.instanceId());
                    }
                }
                return batch;
            });
        }
        return ids;
    }

    /** Closes every open batch (this node stopped leading) and returns them, so their wheel entries can go. */
    List<Batch> takeAll() {
        List<Batch> all = new ArrayList<>(open.values());
        all.forEach(b -> open.remove(b.key, b));
        return all;
    }
}
