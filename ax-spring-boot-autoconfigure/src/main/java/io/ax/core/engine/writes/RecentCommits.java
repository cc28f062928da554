package io.ax.core.engine.writes;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.OwnedInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The last change this node committed of each instance it changed lately (at most {@code capacity} instances, none
 * older than {@code window}), so that after a failover it can tell which of them the store no longer holds: the
 * instances affected by the writes it lost. Fed by the {@link StoreRouter} once the store said a write committed;
 * MEMORY instances, which live in this process, are left out. Thread-safe.
 */
public final class RecentCommits {

    /** One committed change: the state and attempt it left, and its time ({@code at}, as the row records it). */
    record Commit(String instanceId, InstanceState state, int attempt, Instant at, long recordedNanos) {}

    /**
     * A committed change as it can leave this process: {@code age} is how long ago it was committed, {@code at} the
     * change's time as its row records it (null for a new row).
     */
    public record Remembered(String instanceId, InstanceState state, int attempt, Instant at, Duration age) {}

    private static final int READ_BATCH = 500;

    private final int capacity;
    private final long windowNanos;
    private final LongSupplier nanos;
    /** Oldest first; guarded by this. */
    private final LinkedHashMap<String, Commit> commits = new LinkedHashMap<>();
    /**
     * Instances whose commits this node saw go back (see {@link #wentBack}), with when, oldest first: missing from the
     * store whatever their rows hold now. Guarded by this.
     */
    private final LinkedHashMap<String, Long> provenLost = new LinkedHashMap<>();
    /** How many times what is remembered changed; guarded by this. */
    private long changes;
    /**
     * The file this node keeps of its memory ({@link KeptCommits}), told of every commit before the write that made it
     * is answered; null for none.
     */
    private volatile KeptCommits kept;

    /**
     * @param capacity the most instances remembered
     * @param window how long a commit is remembered
     * @param nanos the monotonic clock
     */
    public RecentCommits(int capacity, Duration window, LongSupplier nanos) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive, was " + capacity);
        }
        this.capacity = capacity;
        this.windowNanos = window.toNanos();
        this.nanos = nanos;
    }

    /** Tells {@code file} of every commit from now on, as it is remembered. */
    public void keepIn(KeptCommits file) {
        this.kept = file;
    }

    /** A state change the store committed. */
    public void changed(Transition t) {
        changed(List.of(t));
    }

    /** State changes the store committed together. */
    public void changed(List<Transition> all) {
        List<Commit> batch = new ArrayList<>(all.size());
        for (Transition t : all) {
            batch.add(put(new Commit(t.instanceId(), t.to(), t.attempt(), t.at(), nanos.getAsLong()), t.from()));
        }
        journal(batch);
    }

    /** A new instance the store committed. */
    public void created(TaskInstance instance) {
        created(List.of(instance));
    }

    /** New instances the store committed together. */
    public void created(List<TaskInstance> all) {
        List<Commit> batch = new ArrayList<>(all.size());
        for (TaskInstance i : all) {
            batch.add(put(new Commit(i.id(), i.state(), i.attempt(), null, nanos.getAsLong()), null));
        }
        journal(batch);
    }

    /**
     * Outside this memory's lock, after the commits were put in it: a file written anew meanwhile holds each either
     * in the memory it was written from or among the commits it was told of while it was written.
     */
    private void journal(List<Commit> batch) {
        KeptCommits file = kept;
        if (file != null) {
            List<Commit> durable =
                    batch.stream().filter(java.util.Objects::nonNull).toList();
            if (!durable.isEmpty()) {
                file.committed(durable);
            }
        }
    }

    /** Remembers {@code c}; returns it, or null for a MEMORY instance. */
    private synchronized Commit put(Commit c, InstanceState from) {
        if (InstanceIds.isMemory(c.instanceId())) {
            return null; // lives in this process: no failover of the store loses it
        }
        Commit prior = commits.get(c.instanceId());
        if (prior != null && wentBack(prior, from, c.attempt())) {
            provenLost.remove(c.instanceId());
            provenLost.put(c.instanceId(), c.recordedNanos());
        }
        commits.remove(c.instanceId()); // re-inserted last: the map stays in commit order
        commits.put(c.instanceId(), c);
        changes++;
        long now = c.recordedNanos();
        forgetOld(commits.values().iterator(), Commit::recordedNanos, commits.size(), now);
        forgetOld(provenLost.values().iterator(), n -> n, provenLost.size(), now);
        return c;
    }

    /**
     * Whether a change from {@code from} at {@code attempt}, committed after {@code prior}, proves that the store lost
     * {@code prior}: the state machine never leads back there. Only a replay leaves a final state; a failed attempt
     * goes on to its retry (a later attempt) or its end, never back to waiting for its own claim, and an attempt claimed
     * is never claimed a second time. So an instance this
     * node changed again on the store that lost {@code prior}, before it found the loss (it claimed the instance
     * again, say), is still named, though its row may by then hold a later change than {@code prior}.
     */
    private static boolean wentBack(Commit prior, InstanceState from, int attempt) {
        if (from == null || from.isFinal()) {
            return false; // a new row, or a replay
        }
        if (prior.state().isFinal()) {
            return true;
        }
        // an attempt this node claimed (or saw fail) is never claimed again: a return leaves it waiting for the next
        // attempt (its own return to SCHEDULED is its last commit then), a takeover moves it on to a later one
        boolean claimedOrFailed = prior.state() == InstanceState.RUNNING
                || prior.state() == InstanceState.FAILED
                || prior.state() == InstanceState.TIMEOUT
                || prior.state() == InstanceState.RETRYING;
        boolean waiting =
                from == InstanceState.CREATED || from == InstanceState.SCHEDULED || from == InstanceState.DISPATCHED;
        return claimedOrFailed && waiting && attempt <= prior.attempt();
    }

    /** Drops the oldest entries while there are more than the capacity or they are older than the window. */
    private <T> void forgetOld(Iterator<T> oldestFirst, java.util.function.ToLongFunction<T> at, int size, long now) {
        int left = size;
        while (oldestFirst.hasNext()) {
            T o = oldestFirst.next();
            if (left <= capacity && now - at.applyAsLong(o) <= windowNanos) {
                break;
            }
            oldestFirst.remove();
            left--;
        }
    }

    /** Whether the last change of the instance this node committed, as remembered here, is that attempt's SUCCESS. */
    public synchronized boolean succeeded(String instanceId, int attempt) {
        Commit c = commits.get(instanceId);
        return c != null && c.state() == InstanceState.SUCCESS && c.attempt() == attempt;
    }

    /**
     * What is remembered now, oldest change first, with each change's age: what a node that stops leaves for another
     * to check ({@link RecentCommitsFolder}).
     */
    public List<Remembered> remembered() {
        return remembered(nanos.getAsLong());
    }

    /** What is remembered, with each change's age as of {@code now} (on this memory's monotonic clock). */
    synchronized List<Remembered> remembered(long now) {
        List<Remembered> all = new ArrayList<>(commits.size());
        for (Commit c : commits.values()) {
            if (now - c.recordedNanos() <= windowNanos) {
                all.add(new Remembered(
                        c.instanceId(), c.state(), c.attempt(), c.at(), Duration.ofNanos(now - c.recordedNanos())));
            }
        }
        return all;
    }

    /**
     * Takes over what another node (or this node before a restart) remembered, so that a failover this node sees
     * later checks those changes too. Of two changes of one instance, the later stays: one node may have created an
     * instance that another then ran. Those older than the window are dropped; the capacity keeps the latest.
     */
    public synchronized void adopt(List<Remembered> others) {
        long now = nanos.getAsLong();
        List<Commit> merged = new ArrayList<>(commits.size() + others.size());
        for (Remembered r : others) {
            if (!InstanceIds.isMemory(r.instanceId()) && r.age().toNanos() <= windowNanos) {
                merged.add(new Commit(
                        r.instanceId(),
                        r.state(),
                        r.attempt(),
                        r.at(),
                        now - r.age().toNanos()));
            }
        }
        if (merged.isEmpty()) {
            return;
        }
        merged.addAll(commits.values());
        // stable: at an equal time this node's own change, added last, stays
        merged.sort(java.util.Comparator.comparingLong(c -> c.recordedNanos() - now));
        commits.clear();
        for (Commit c : merged) {
            commits.remove(c.instanceId()); // re-inserted last: the later change of an instance stays, in order
            commits.put(c.instanceId(), c);
        }
        forgetOld(commits.values().iterator(), Commit::recordedNanos, commits.size(), now);
        changes++;
    }

    /** A count that grows with each change of what is remembered: equal counts, equal memories. */
    public synchronized long changes() {
        return changes;
    }

    /** How many instances are remembered now. */
    public synchronized int size() {
        return commits.size();
    }

    /**
     * The instances whose last committed change, as remembered here, the store does not hold: the row is missing, or
     * it is in an earlier attempt, or in an earlier state of the same attempt and older than the change; and those
     * whose commits were seen to go back here (see {@link #wentBack}). Reads the rows in batches.
     *
     * @return their ids: those seen to go back first, then the others, oldest change first
     */
    public List<String> missingFrom(InstanceStore store) {
        List<Commit> all;
        List<String> lost;
        synchronized (this) {
            all = new ArrayList<>(commits.values());
            lost = new ArrayList<>(provenLost.keySet());
        }
        java.util.Set<String> proven = new java.util.HashSet<>(lost);
        all.removeIf(c -> proven.contains(c.instanceId())); // lost whatever their rows hold: not read
        for (int from = 0; from < all.size(); from += READ_BATCH) {
            List<Commit> batch = all.subList(from, Math.min(all.size(), from + READ_BATCH));
            Map<String, TaskInstance> rows = new HashMap<>();
            for (OwnedInstance o :
                    store.findAll(batch.stream().map(Commit::instanceId).toList())) {
                rows.put(o.instance().id(), o.instance());
            }
            for (Commit c : batch) {
                if (lost(c, rows.get(c.instanceId()))) {
                    lost.add(c.instanceId());
                }
            }
        }
        return lost;
    }

    /**
     * Whether the row lacks the change. A final change is lacking unless the row holds that very change. A later
     * change by another node leaves the row in another state, but never an earlier one with an older time: of the two
     * tests, the time alone would take a node's skewed clock for a loss, the state alone an ack time-out's way back
     * (DISPATCHED to SCHEDULED) for one.
     */
    static boolean lost(Commit c, TaskInstance row) {
        if (row == null) {
            return true;
        }
        if (c.state().isFinal()) {
            // nothing leaves a final state; one reached again, at another time, is this attempt run again after the
            // store lost its end (its time is the change's own, see ChangeStamps)
            return row.state() != c.state()
                    || (c.at() != null && row.updatedAt() != null && !ChangeStamps.sameMicro(row.updatedAt(), c.at()));
        }
        if (row.attempt() != c.attempt()) {
            return row.attempt() < c.attempt();
        }
        if (row.state() == c.state()) {
            return false;
        }
        boolean older =
                c.at() == null || row.updatedAt() == null || row.updatedAt().isBefore(c.at());
        return older && rank(row.state()) < rank(c.state());
    }

    /** How far along an attempt a state is. */
    private static int rank(InstanceState s) {
        return switch (s) {
            case CREATED -> 0;
            case SCHEDULED -> 1;
            case DISPATCHED -> 2;
            case RUNNING -> 3;
            case FAILED, TIMEOUT -> 4;
            case RETRYING -> 5;
            default -> 6;
        };
    }
}
