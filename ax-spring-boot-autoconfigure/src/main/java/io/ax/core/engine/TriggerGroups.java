package io.ax.core.engine;

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

        private Batch(Key key) {
            this.key = key;
        }
    }

    private final ConcurrentHashMap<Key, Batch> open = new ConcurrentHashMap<>();

    /** Adds {@code due}; returns the batch if this call opened it (so the caller schedules it), else null. */
    Batch add(Trigger trigger, Instant fireTime, Due due) {
        Batch[] opened = new Batch[1];
        open.compute(new Key(trigger, fireTime), (k, batch) -> {
            if (batch == null) {
                batch = new Batch(k);
                opened[0] = batch;
            }
            batch.dues.add(due);
            return batch;
        });
        return opened[0];
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
}
