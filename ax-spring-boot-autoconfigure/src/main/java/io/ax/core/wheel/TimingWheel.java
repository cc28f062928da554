package io.ax.core.wheel;

import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * A hierarchical timing wheel: O(1) schedule and cancel of payloads at {@link System#nanoTime()}-style
 * deadlines, fired in deadline order by {@link #advance(long, Consumer)}.
 *
 * <p><b>Not thread-safe.</b> An instance is owned by one thread, or guarded by its owner's lock (see
 * {@link WheelTimer}). It never reads a clock: the owner hands the time in, so tests drive it by hand.
 *
 * <h2>Algorithm</h2>
 *
 * Time is counted in ticks of {@code tickNanos} since {@code startNanos}; a deadline {@code d} belongs to tick
 * {@code D = floor((d - startNanos) / tickNanos)} (a deadline already in the past belongs to the current tick
 * {@code C}). Ticks are 64-bit counters read as {@value #LEVELS} groups of {@value #BUCKET_BITS} bits. An entry
 * lives in level {@code k}, bucket {@code D[k]} (the k-th group of {@code D}), where {@code k} is the highest group
 * in which {@code D} and {@code C} differ (level 0, bucket {@code C[0]} when {@code D == C}). So a level-0 bucket
 * spans one tick, a level-1 bucket 64 ticks (a whole turn of level 0), a level-2 bucket 4,096 ticks and so on;
 * eleven levels cover every 64-bit tick count, so no deadline is ever beyond the top level and no overflow list is
 * needed. (The counter itself wraps after 2<sup>64</sup> ticks, 584 years of one-nanosecond ticks; entries beyond
 * the wrap wait on the top level, and crossing the wrap re-examines every bucket.)
 *
 * <p>Worked example with the current tick {@code C = 0x1_40} (groups 5, 0) and an entry due at tick
 * {@code D = 0x1_C3} (groups 7, 3): they first differ in group 1, so the entry waits in level 1, bucket 7. When
 * {@code C} reaches {@code 0x1_C0}, bucket 7 of level 1 is crossed and the entry cascades: relative to the new
 * {@code C} it differs only in group 0, so it moves to level 0, bucket 3, and fires when the time passes its exact
 * deadline. An entry cascades at most once per level over its life.
 *
 * <p>Advancing from tick {@code C} to {@code C'} empties, at each level, the buckets the move crossed (all of them
 * if a higher group changed), found with a per-level occupancy bitmap so that a jump of hours costs at most 64
 * bits per level, not one step per tick. The emptied entries are re-examined: those due ({@code deadline - now <=
 * 0}) fire, the rest cascade to their new home. The current level-0 bucket is always re-examined, so a deadline
 * fires on the first advance at or after it, never earlier.
 *
 * <h2>Memory</h2>
 *
 * Entries are slots in parallel arrays (deadline, links, generation, payload), about 24 bytes each; buckets are
 * intrusive circular doubly linked lists threaded through the same arrays by index, with one sentinel slot per
 * bucket. Free slots form a list; the arrays grow by half when full. Nothing is allocated per entry.
 *
 * <h2>Handles</h2>
 *
 * A handle packs the slot index (low 32 bits) and the slot's generation (high 32 bits). Freeing a slot bumps its
 * generation, so a stale handle never cancels the slot's next occupant.
 *
 * @param <T> the payload type; payloads are never {@code null}
 */
final class TimingWheel<T> {

    static final int BUCKET_BITS = 6;
    static final int BUCKETS = 1 << BUCKET_BITS;
    static final int LEVELS = 11; // 11 * 6 = 66 bits: every 64-bit tick count has a level
    private static final long BUCKET_MASK = BUCKETS - 1;

    /** The sentinel of the list of entries taken out of buckets and being re-examined or fired. */
    private static final int FIRING = LEVELS * BUCKETS;

    private static final int SENTINELS = FIRING + 1;
    private static final int FREE = -1; // prev[] of a slot on the free list
    private static final int INITIAL_CAPACITY = 1024;
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;
    private static final int RETAINED_SCRATCH = 1 << 12;

    private final long tickNanos;
    private final long[] occupancy = new long[LEVELS]; // bit b of word k: bucket b of level k is not empty

    private long currentTick; // ticks since startNanos, as an unsigned 64-bit count
    private long currentTickStartNanos;

    private long[] deadlines;
    private int[] next;
    private int[] prev;
    private int[] generations;
    private Object[] payloads;

    private int highWater = SENTINELS; // slots below it have been used at least once
    private int freeHead = -1; // free list, linked through next[]
    private int size;
    private boolean advancing;

    private long[] due = new long[64]; // handles found due by the current advance
    private long[] dueScratch = new long[0];

    /**
     * Creates an empty wheel.
     *
     * @param tickNanos the span of a level-0 bucket, positive (AX uses 1 ms); deadlines still fire at their exact
     *     nanosecond, the tick only sets how coarsely entries are bucketed
     * @param startNanos the current time, in {@code System.nanoTime()} terms
     * @throws IllegalArgumentException if {@code tickNanos} is not positive
     */
    TimingWheel(long tickNanos, long startNanos) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("tickNanos must be positive but was " + tickNanos);
        }
        this.tickNanos = tickNanos;
        this.currentTickStartNanos = startNanos;
        resize(INITIAL_CAPACITY);
        for (int s = 0; s < SENTINELS; s++) {
            next[s] = s;
            prev[s] = s;
        }
    }

    /**
     * Schedules a payload, in O(1).
     *
     * @param deadlineNanos when to fire, in {@code System.nanoTime()} terms; a deadline already past fires on the
     *     next advance
     * @param payload what to hand to the sink, not {@code null}
     * @return a handle for {@link #cancel(long)}
     * @throws IllegalStateException if the wheel already holds the maximum number of entries
     */
    long schedule(long deadlineNanos, T payload) {
        Objects.requireNonNull(payload, "payload");
        int slot = allocate();
        deadlines[slot] = deadlineNanos;
        payloads[slot] = payload;
        link(slot, homeOf(deadlineNanos));
        size++;
        return handleOf(slot);
    }

    /**
     * Cancels an entry, in O(1). A cancelled entry never fires, even when cancelled by the sink during the advance
     * that found it due.
     *
     * @param handle a handle returned by {@link #schedule(long, Object)}
     * @return {@code true} if the entry was pending and is now cancelled; {@code false} if it already fired or was
     *     cancelled, or the handle is not one of this wheel's (no other entry is affected)
     */
    boolean cancel(long handle) {
        if (!isPending(handle)) {
            return false;
        }
        int slot = (int) handle;
        unlink(slot);
        release(slot);
        return true;
    }

    /**
     * Moves a pending entry to another deadline, in O(1), keeping its handle and payload.
     *
     * @return {@code true} if the entry was pending and now waits for {@code deadlineNanos}; {@code false} if it
     *     already fired or was cancelled
     */
    boolean reschedule(long handle, long deadlineNanos) {
        if (!isPending(handle)) {
            return false;
        }
        int slot = (int) handle;
        unlink(slot);
        deadlines[slot] = deadlineNanos;
        link(slot, homeOf(deadlineNanos));
        return true;
    }

    /** The payload of a pending entry, or {@code null} if it already fired or was cancelled. */
    @SuppressWarnings("unchecked")
    T payload(long handle) {
        return isPending(handle) ? (T) payloads[(int) handle] : null;
    }

    /**
     * Moves the wheel to {@code nowNanos} and fires every entry whose {@code deadline - nowNanos <= 0}, in deadline
     * order, ties in schedule order. Work is bounded by the due entries plus the entries that cascade, and at most
     * 64 buckets per level.
     *
     * <p>Each entry is removed before its payload goes to the sink, so the sink may schedule and cancel (including
     * entries due in this same advance, which then do not fire) but must not advance. If the sink throws, the
     * exception propagates; entries not yet delivered stay scheduled and are delivered by the next advance.
     *
     * @param nowNanos the current time, in {@code System.nanoTime()} terms; a time earlier than a previous one is
     *     allowed and fires only what is due at that time
     * @param sink receives the due payloads
     * @return how many payloads were handed to the sink
     * @throws IllegalStateException if called from the sink of an advance in progress
     */
    int advance(long nowNanos, Consumer<? super T> sink) {
        Objects.requireNonNull(sink, "sink");
        if (advancing) {
            throw new IllegalStateException("advance must not be called from the sink of an advance");
        }
        long elapsed = nowNanos - currentTickStartNanos;
        long ticks = elapsed > 0 ? elapsed / tickNanos : 0;
        takeOutCrossedBuckets(currentTick, currentTick + ticks);
        currentTick += ticks;
        currentTickStartNanos += ticks * tickNanos;
        int dueCount = reexamineTakenOut(nowNanos);
        if (dueCount == 0) {
            return 0;
        }
        DueOrder.sort(due, dueCount, deadlines, nowNanos, scratchOf(dueCount));
        return deliver(dueCount, sink);
    }

    /**
     * The earliest time at which an advance could fire something: the exact earliest deadline when it lies in the
     * current turn of level 0, otherwise the start of the next non-empty bucket, where entries cascade closer. A
     * time already past means an advance now fires something.
     *
     * @return that time, or empty when the wheel holds no entry
     */
    OptionalLong nextDeadline() {
        if (size == 0) {
            return OptionalLong.empty();
        }
        if (next[FIRING] != FIRING) { // left by a sink that threw: due now
            return OptionalLong.of(earliestDeadlineIn(FIRING));
        }
        for (int level = 0; level < LEVELS; level++) {
            long occupied = occupancy[level];
            if (occupied == 0) {
                continue;
            }
            // Occupied buckets lie after the current one, except on the top level for ticks past the counter's
            // wrap, which come after all others.
            int current = (int) ((currentTick >>> (level * BUCKET_BITS)) & BUCKET_MASK);
            long ahead = occupied & (-1L << current);
            int bucket = Long.numberOfTrailingZeros(ahead != 0 ? ahead : occupied);
            if (level == 0) {
                return OptionalLong.of(earliestDeadlineIn(bucket));
            }
            int shift = level * BUCKET_BITS;
            long bucketTick = (highGroups(currentTick, level) << BUCKET_BITS | bucket) << shift;
            return OptionalLong.of(currentTickStartNanos + (bucketTick - currentTick) * tickNanos);
        }
        throw new IllegalStateException("size is " + size + " but no bucket is occupied");
    }

    /** The number of pending entries. */
    int size() {
        return size;
    }

    // --- placement ---

    /** The sentinel of the bucket where an entry due at {@code deadlineNanos} belongs now. */
    private int homeOf(long deadlineNanos) {
        long delta = deadlineNanos - currentTickStartNanos;
        long tick = delta > 0 ? currentTick + delta / tickNanos : currentTick;
        long differing = tick ^ currentTick;
        if (differing == 0) {
            return (int) (tick & BUCKET_MASK);
        }
        int level = (63 - Long.numberOfLeadingZeros(differing)) / BUCKET_BITS;
        return level * BUCKETS + (int) ((tick >>> (level * BUCKET_BITS)) & BUCKET_MASK);
    }

    /** The groups of {@code tick} above {@code level}, shifted down. */
    private static long highGroups(long tick, int level) {
        int shift = (level + 1) * BUCKET_BITS;
        return shift >= Long.SIZE ? 0 : tick >>> shift;
    }

    /** Moves every bucket crossed by going from tick {@code from} to {@code to} onto the firing list. */
    private void takeOutCrossedBuckets(long from, long to) {
        // The 64-bit tick count wraps after 2^64 ticks (584 years of 1 ns ticks): then every bucket is re-examined.
        boolean wrapped = Long.compareUnsigned(to, from) < 0;
        for (int level = 0; level < LEVELS; level++) {
            long occupied = occupancy[level];
            if (occupied == 0) {
                continue;
            }
            long crossed;
            if (!wrapped && highGroups(from, level) == highGroups(to, level)) {
                int shift = level * BUCKET_BITS;
                int first = (int) ((from >>> shift) & BUCKET_MASK);
                int last = (int) ((to >>> shift) & BUCKET_MASK);
                crossed = (-1L << first) & (-1L >>> (63 - last));
            } else {
                crossed = -1L; // a whole turn of this level has passed
            }
            for (long hit = occupied & crossed; hit != 0; hit &= hit - 1) {
                spliceOntoFiring(level * BUCKETS + Long.numberOfTrailingZeros(hit));
            }
        }
    }

    /**
     * Walks the firing list: due entries stay on it and are recorded, the others cascade to their home.
     *
     * @return how many entries are due
     */
    private int reexamineTakenOut(long nowNanos) {
        int count = 0;
        for (int slot = next[FIRING]; slot != FIRING; ) {
            int following = next[slot];
            if (deadlines[slot] - nowNanos <= 0) {
                if (count == due.length) {
                    due = Arrays.copyOf(due, count * 2);
                }
                due[count++] = handleOf(slot);
            } else {
                unlink(slot);
                link(slot, homeOf(deadlines[slot]));
            }
            slot = following;
        }
        return count;
    }

    @SuppressWarnings("unchecked")
    private int deliver(int dueCount, Consumer<? super T> sink) {
        advancing = true;
        int fired = 0;
        try {
            for (int i = 0; i < dueCount; i++) {
                long handle = due[i];
                if (!isPending(handle)) {
                    continue; // cancelled by the sink
                }
                int slot = (int) handle;
                T payload = (T) payloads[slot];
                unlink(slot);
                release(slot);
                fired++;
                sink.accept(payload);
            }
            return fired;
        } finally {
            advancing = false;
            if (due.length > RETAINED_SCRATCH) { // do not keep a burst's scratch for the wheel's life
                due = new long[64];
                dueScratch = new long[0];
            }
        }
    }

    private long[] scratchOf(int length) {
        if (dueScratch.length < length) {
            dueScratch = new long[Math.max(length, due.length)];
        }
        return dueScratch;
    }

    private long earliestDeadlineIn(int sentinel) {
        int slot = next[sentinel];
        long earliest = deadlines[slot];
        for (slot = next[slot]; slot != sentinel; slot = next[slot]) {
            if (deadlines[slot] - earliest < 0) {
                earliest = deadlines[slot];
            }
        }
        return earliest;
    }

    // --- intrusive lists ---

    private void link(int slot, int sentinel) {
        int last = prev[sentinel];
        next[last] = slot;
        prev[slot] = last;
        next[slot] = sentinel;
        prev[sentinel] = slot;
        if (sentinel != FIRING) {
            occupancy[sentinel >>> BUCKET_BITS] |= 1L << (sentinel & BUCKET_MASK);
        }
    }

    private void unlink(int slot) {
        int before = prev[slot];
        int after = next[slot];
        next[before] = after;
        prev[after] = before;
        if (before == after && before != FIRING) { // only the sentinel is left: the bucket is empty
            occupancy[before >>> BUCKET_BITS] &= ~(1L << (before & BUCKET_MASK));
        }
    }

    private void spliceOntoFiring(int sentinel) {
        int first = next[sentinel];
        int last = prev[sentinel];
        int tail = prev[FIRING];
        next[tail] = first;
        prev[first] = tail;
        next[last] = FIRING;
        prev[FIRING] = last;
        next[sentinel] = sentinel;
        prev[sentinel] = sentinel;
        occupancy[sentinel >>> BUCKET_BITS] &= ~(1L << (sentinel & BUCKET_MASK));
    }

    // --- slots ---

    private long handleOf(int slot) {
        return ((long) generations[slot] << 32) | slot;
    }

    private boolean isPending(long handle) {
        int slot = (int) handle;
        return slot >= SENTINELS
                && slot < highWater
                && prev[slot] != FREE
                && generations[slot] == (int) (handle >>> 32);
    }

    private int allocate() {
        if (freeHead >= 0) {
            int slot = freeHead;
            freeHead = next[slot];
            return slot;
        }
        if (highWater == deadlines.length) {
            if (highWater == MAX_CAPACITY) {
                throw new IllegalStateException("the timing wheel is full: " + size + " entries");
            }
            resize((int) Math.min(MAX_CAPACITY, highWater + (long) (highWater >> 1)));
        }
        return highWater++;
    }

    private void release(int slot) {
        payloads[slot] = null;
        generations[slot]++;
        prev[slot] = FREE;
        next[slot] = freeHead;
        freeHead = slot;
        size--;
    }

    private void resize(int capacity) {
        if (deadlines == null) {
            deadlines = new long[capacity];
            next = new int[capacity];
            prev = new int[capacity];
            generations = new int[capacity];
            payloads = new Object[capacity];
            return;
        }
        deadlines = Arrays.copyOf(deadlines, capacity);
        next = Arrays.copyOf(next, capacity);
        prev = Arrays.copyOf(prev, capacity);
        generations = Arrays.copyOf(generations, capacity);
        payloads = Arrays.copyOf(payloads, capacity);
    }
}
