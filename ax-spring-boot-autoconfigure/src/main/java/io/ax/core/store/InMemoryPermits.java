package io.ax.core.store;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The permits of an {@link InMemoryInstanceStore}: a table of (key, slot) rows under one lock, beside the store's
 * instances, whose states say which rows are held. A claim finds a slot for each limit, applies its transition with the
 * store's own {@link InMemoryInstanceStore#transition} (conditional and fenced) and writes its rows, all under the
 * lock: the transition is the only step that can fail, and it fails before any row is written. A rate's row is held
 * until its time on the clock's monotonic nanos, whatever its attempt does; a release leaves it, and drops those whose
 * time is up. Thread-safe.
 */
final class InMemoryPermits implements Permits {

    private static final NavigableMap<Integer, Row> EMPTY = new TreeMap<>();

    private final InMemoryInstanceStore store;
    private final AxClock clock;

    /**
     * Guards {@link #rows}. Held while a claim applies its transition, which takes the store's own locks inside it;
     * never the other way round.
     */
    private final Object lock = new Object();

    /**
     * key -&gt; slot -&gt; the row; a key without rows is removed, so the table holds the rows written and no more (a
     * rate's expired rows until a claim takes their slot or a release drops them).
     */
    private final NavigableMap<String, NavigableMap<Integer, Row>> rows = new TreeMap<>();

    /** A row: the permit, and for a rate's ({@code rate}) the clock's nanos it is held until. */
    private record Row(Held permit, boolean rate, long until) {}

    /** Rates on the system clock. */
    InMemoryPermits(InMemoryInstanceStore store) {
        this(store, AxClock.system());
    }

    /** Rates on {@code clock}'s {@link AxClock#nanoTime()}, which tests move by hand. */
    InMemoryPermits(InMemoryInstanceStore store, AxClock clock) {
        this.store = store;
        this.clock = clock;
    }

    @Override
    public Outcome claim(Transition claim, List<Limit> limits, boolean auditWait) {
        List<Limit> ordered = Permits.inKeyOrder(claim, limits);
        Outcome outcome;
        synchronized (lock) {
            outcome = claimLocked(claim, ordered, clock.nanoTime());
        }
        if (outcome.result() == Result.WAITS && auditWait) {
            noteWait(claim, outcome.reason());
        }
        return outcome;
    }

    @Override
    public void noteWait(Transition claim, String reason) {
        store.note(claim.instanceId(), claim.from(), claim.node(), claim.at(), reason);
    }

    private Outcome claimLocked(Transition claim, List<Limit> limits, long now) {
        int[] slots = new int[limits.size()];
        for (int i = 0; i < slots.length; i++) {
            NavigableMap<Integer, Row> taken = rows.getOrDefault(limits.get(i).key(), EMPTY);
            slots[i] = slotFor(limits.get(i), taken, claim, now);
            if (slots[i] < 0) {
                return Outcome.waits(limits.get(i), holders(taken, now));
            }
        }
        if (!store.transition(claim)) { // a fenced claim throws here, before any row is written
            return Outcome.NOT_APPLIED;
        }
        for (int i = 0; i < slots.length; i++) {
            Limit limit = limits.get(i);
            NavigableMap<Integer, Row> taken = rows.computeIfAbsent(limit.key(), k -> new TreeMap<>());
            Row was = taken.get(slots[i]);
            if (was != null && was.rate() && isHeld(was, now)) {
                continue; // its own: its window runs from its first claim, the attempt never started
            }
            Held permit = new Held(limit.key(), slots[i], claim.instanceId(), claim.attempt(), claim.node());
            taken.put(slots[i], new Row(permit, limit.isRate(), limit.isRate() ? now + nanos(limit) : 0));
        }
        return Outcome.CLAIMED;
    }

    /** Saturated rather than overflowing: rows compare times by difference, good for 292 years. */
    private static long nanos(Limit rate) {
        return TimeUnit.NANOSECONDS.convert(rate.window());
    }

    /**
     * The slot {@code claim} takes of {@code limit}: the one its attempt holds already, else the lowest without a row
     * or whose row is not held; -1 when every slot is held.
     */
    private int slotFor(Limit limit, NavigableMap<Integer, Row> taken, Transition claim, long now) {
        int lowest = -1;
        int next = 0; // the lowest slot not seen yet: free when the next row is above it
        for (Row row : taken.headMap(limit.permits()).values()) {
            Held p = row.permit();
            if (p.instanceId().equals(claim.instanceId()) && p.attempt() == claim.attempt()) {
                return p.slot();
            }
            if (lowest < 0 && p.slot() > next) {
                lowest = next;
            } else if (lowest < 0 && !isHeld(row, now)) {
                lowest = p.slot();
            }
            next = p.slot() + 1;
        }
        return lowest >= 0 || next >= limit.permits() ? lowest : next;
    }

    /** Whether the row is held: a rate's until its time, another while its instance is RUNNING at its attempt. */
    private boolean isHeld(Row row, long now) {
        if (row.rate()) {
            return row.until() - now > 0;
        }
        TaskInstance in = store.find(row.permit().instanceId()).orElse(null);
        return in != null
                && in.state() == InstanceState.RUNNING
                && in.attempt() == row.permit().attempt();
    }

    private List<String> holders(Map<Integer, Row> taken, long now) {
        return taken.values().stream()
                .filter(r -> isHeld(r, now))
                .map(r -> r.permit().instanceId())
                .toList();
    }

    /** A rate's rows are left to their time, and not counted: none stays because its attempt is RUNNING. */
    @Override
    public int release(String instanceId, int attempt) {
        int kept = 0;
        synchronized (lock) {
            long now = clock.nanoTime();
            for (Iterator<NavigableMap<Integer, Row>> keys = rows.values().iterator(); keys.hasNext(); ) {
                NavigableMap<Integer, Row> taken = keys.next();
                for (Iterator<Row> it = taken.values().iterator(); it.hasNext(); ) {
                    Row row = it.next();
                    Held p = row.permit();
                    if (row.rate()) {
                        if (!isHeld(row, now)) {
                            it.remove(); // on the way anyway, as the database's releases delete a few
                        }
                    } else if (p.instanceId().equals(instanceId) && p.attempt() == attempt) {
                        if (isHeld(row, now)) {
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
            long now = clock.nanoTime();
            for (NavigableMap<Integer, Row> taken : rows.values()) {
                for (Row row : taken.values()) {
                    if (out.size() >= limit) {
                        return out;
                    }
                    if (isHeld(row, now)) {
                        out.add(row.permit());
                    }
                }
            }
        }
        return out;
    }
}
