package io.ax.core.store;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The permits of an {@link InMemoryInstanceStore}: a table of (key, slot) rows under one lock, beside the store's
 * instances, whose states say which rows are held. A claim finds a slot for each limit, applies its transition with the
 * store's own {@link InMemoryInstanceStore#transition} (conditional and fenced) and writes its rows, all under the
 * lock: the transition is the only step that can fail, and it fails before any row is written. Thread-safe.
 */
final class InMemoryPermits implements Permits {

    private static final NavigableMap<Integer, Held> EMPTY = new TreeMap<>();

    private final InMemoryInstanceStore store;

    /**
     * Guards {@link #rows}. Held while a claim applies its transition, which takes the store's own locks inside it;
     * never the other way round.
     */
    private final Object lock = new Object();

    /** key -&gt; slot -&gt; the row; a key without rows is removed, so the table holds the rows written and no more. */
    private final NavigableMap<String, NavigableMap<Integer, Held>> rows = new TreeMap<>();

    InMemoryPermits(InMemoryInstanceStore store) {
        this.store = store;
    }

    @Override
    public Outcome claim(Transition claim, List<Limit> limits, boolean auditWait) {
        List<Limit> ordered = Permits.inKeyOrder(claim, limits);
        Outcome outcome;
        synchronized (lock) {
            outcome = claimLocked(claim, ordered);
        }
        if (outcome.result() == Result.WAITS && auditWait) {
            store.note(claim.instanceId(), claim.from(), claim.node(), claim.at(), outcome.reason());
        }
        return outcome;
    }

    private Outcome claimLocked(Transition claim, List<Limit> limits) {
        int[] slots = new int[limits.size()];
        for (int i = 0; i < slots.length; i++) {
            NavigableMap<Integer, Held> taken = rows.getOrDefault(limits.get(i).key(), EMPTY);
            slots[i] = slotFor(limits.get(i), taken, claim);
            if (slots[i] < 0) {
                return Outcome.waits(limits.get(i), holders(taken));
            }
        }
        if (!store.transition(claim)) { // a fenced claim throws here, before any row is written
            return Outcome.NOT_APPLIED;
        }
        for (int i = 0; i < slots.length; i++) {
            String key = limits.get(i).key();
            rows.computeIfAbsent(key, k -> new TreeMap<>())
                    .put(slots[i], new Held(key, slots[i], claim.instanceId(), claim.attempt(), claim.node()));
        }
        return Outcome.CLAIMED;
    }

    /**
     * The slot {@code claim} takes of {@code limit}: the one its attempt holds already, else the lowest without a row
     * or whose row's attempt is over; -1 when every slot is held.
     */
    private int slotFor(Limit limit, NavigableMap<Integer, Held> taken, Transition claim) {
        int lowest = -1;
        int next = 0; // the lowest slot not seen yet: free when the next row is above it
        for (Held row : taken.headMap(limit.permits()).values()) {
            if (row.instanceId().equals(claim.instanceId()) && row.attempt() == claim.attempt()) {
                return row.slot();
            }
            if (lowest < 0 && row.slot() > next) {
                lowest = next;
            } else if (lowest < 0 && !held(row)) {
                lowest = row.slot();
            }
            next = row.slot() + 1;
        }
        return lowest >= 0 || next >= limit.permits() ? lowest : next;
    }

    /** Whether the row's attempt still runs: its instance is RUNNING at that attempt. */
    private boolean held(Held row) {
        TaskInstance in = store.find(row.instanceId()).orElse(null);
        return in != null && in.state() == InstanceState.RUNNING && in.attempt() == row.attempt();
    }

    private List<String> holders(Map<Integer, Held> taken) {
        return taken.values().stream().filter(this::held).map(Held::instanceId).toList();
    }

    @Override
    public int release(String instanceId, int attempt) {
        int kept = 0;
        synchronized (lock) {
            for (Iterator<NavigableMap<Integer, Held>> keys = rows.values().iterator(); keys.hasNext(); ) {
                NavigableMap<Integer, Held> taken = keys.next();
                for (Iterator<Held> it = taken.values().iterator(); it.hasNext(); ) {
                    Held row = it.next();
                    if (row.instanceId().equals(instanceId) && row.attempt() == attempt) {
                        if (held(row)) {
                            kept++;
                        } else {
                            it.remove();
                        }
                    }
                }
                if (taken.isEmpty()) {
                    keys.remove();
                }
            }
        }
        return kept;
    }

    @Override
    public List<Held> held(int limit) {
        List<Held> out = new ArrayList<>();
        synchronized (lock) {
            for (NavigableMap<Integer, Held> taken : rows.values()) {
                for (Held row : taken.values()) {
                    if (out.size() >= limit) {
                        return out;
                    }
                    if (held(row)) {
                        out.add(row);
                    }
                }
            }
        }
        return out;
    }
}
