package io.ax.core.engine.work;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The queue of one pool: bounded, highest priority first, equal priorities in the order they came; but work that has
 * waited the overtake limit goes before everything that came after it, so that a steady stream of high priorities
 * delays a low one by at most the limit (plus the work that came before it) and never starves it. Work that is not
 * {@link Prioritized} has priority 0.
 *
 * <p>One first-in-first-out lane per priority, the lanes by priority: a put appends to its lane, a take removes the
 * head of the highest lane, or of the lane whose head waited longest when that one is past the limit (the oldest work
 * is always a lane's head). With one priority in use (the usual case) it is a plain FIFO: no clock read, no sorted
 * structure, no allocation beyond the entry. Thread-safe: one lock, as {@link java.util.concurrent.ArrayBlockingQueue}
 * has.
 */
final class PriorityWorkQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

    /** Work that knows its priority. */
    interface Prioritized {
        int priority();
    }

    private record Entry(Runnable work, int priority, long seq, long sinceNanos) {}

    private final int capacity;
    private final long overtakeLimitNanos;
    private final LongSupplier nanoTime;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    /** Priority (highest first) -> its waiting work, in the order it came; no lane is empty. */
    private final TreeMap<Integer, ArrayDeque<Entry>> lanes = new TreeMap<>(Comparator.reverseOrder());

    /** An emptied lane kept for the next one opened: a queue that drains and fills again allocates none. */
    private ArrayDeque<Entry> spare;

    private int size;
    private long nextSeq;
    private long agedStarts;

    /**
     * @param capacity how much work may wait; at least 1 (a pool without a queue hands work over directly)
     * @param overtakeLimitNanos how long waiting work may be overtaken by higher priorities
     * @param nanoTime the monotonic clock the waits are measured on
     */
    PriorityWorkQueue(int capacity, long overtakeLimitNanos, LongSupplier nanoTime) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
        this.overtakeLimitNanos = overtakeLimitNanos;
        this.nanoTime = nanoTime;
    }

    /** How many takes the overtake limit decided: work that would have been overtaken again and was not. */
    long agedStarts() {
        lock.lock();
        try {
            return agedStarts;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(Runnable work) {
        Objects.requireNonNull(work, "work");
        lock.lock();
        try {
            if (size >= capacity) {
                return false;
            }
            enqueue(work);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void put(Runnable work) throws InterruptedException {
        Objects.requireNonNull(work, "work");
        lock.lockInterruptibly();
        try {
            while (size >= capacity) {
                notFull.await();
            }
            enqueue(work);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(Runnable work, long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(work, "work");
        long left = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (size >= capacity) {
                if (left <= 0) {
                    return false;
                }
                left = notFull.awaitNanos(left);
            }
            enqueue(work);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void enqueue(Runnable work) {
        int priority = work instanceof Prioritized p ? p.priority() : 0;
        Entry e = new Entry(work, priority, nextSeq++, nanoTime.getAsLong());
        ArrayDeque<Entry> lane = lanes.get(priority);
        if (lane == null) {
            lane = spare != null ? spare : new ArrayDeque<>();
            spare = null;
            lanes.put(priority, lane);
        }
        lane.addLast(e);
        size++;
        notEmpty.signal();
    }

    @Override
    public Runnable poll() {
        lock.lock();
        try {
            return size == 0 ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (size == 0) {
                notEmpty.await();
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        long left = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (size == 0) {
                if (left <= 0) {
                    return null;
                }
                left = notEmpty.awaitNanos(left);
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock, not empty: the next work, by the overtake limit or else by priority. */
    private Runnable dequeue() {
        ArrayDeque<Entry> lane = nextLane();
        if (lane != lanes.firstEntry().getValue()) {
            agedStarts++;
        }
        Entry next = lane.pollFirst();
        if (lane.isEmpty()) {
            lanes.remove(next.priority());
            spare = lane;
        }
        size--;
        notFull.signal();
        return next.work();
    }

    /** Under the lock, not empty: the lane whose head goes next. */
    private ArrayDeque<Entry> nextLane() {
        ArrayDeque<Entry> highest = lanes.firstEntry().getValue();
        if (lanes.size() == 1) {
            return highest; // its head is the oldest work too
        }
        ArrayDeque<Entry> oldest = highest;
        for (ArrayDeque<Entry> lane : lanes.values()) {
            if (lane.peekFirst().seq() < oldest.peekFirst().seq()) {
                oldest = lane;
            }
        }
        return nanoTime.getAsLong() - oldest.peekFirst().sinceNanos() >= overtakeLimitNanos ? oldest : highest;
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            return size == 0 ? null : nextLane().peekFirst().work();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int remainingCapacity() {
        lock.lock();
        try {
            return capacity - size;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(Object work) {
        lock.lock();
        try {
            for (Iterator<ArrayDeque<Entry>> l = lanes.values().iterator(); l.hasNext(); ) {
                ArrayDeque<Entry> lane = l.next();
                for (Iterator<Entry> i = lane.iterator(); i.hasNext(); ) {
                    Entry e = i.next();
                    if (e.work() == work || e.work().equals(work)) {
                        i.remove();
                        if (lane.isEmpty()) {
                            l.remove();
                        }
                        size--;
                        notFull.signal();
                        return true;
                    }
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int drainTo(Collection<? super Runnable> sink) {
        return drainTo(sink, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> sink, int most) {
        Objects.requireNonNull(sink, "sink");
        if (sink == this) {
            throw new IllegalArgumentException("cannot drain a queue into itself");
        }
        lock.lock();
        try {
            int n = 0;
            while (n < most && size > 0) {
                sink.add(dequeue());
                n++;
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** A snapshot in priority order; its {@code remove} takes the work out of the queue. */
    @Override
    public Iterator<Runnable> iterator() {
        List<Runnable> snapshot = new ArrayList<>();
        lock.lock();
        try {
            lanes.values().forEach(lane -> lane.forEach(e -> snapshot.add(e.work())));
        } finally {
            lock.unlock();
        }
        Iterator<Runnable> it = snapshot.iterator();
        return new Iterator<>() {
            private Runnable last;

            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Runnable next() {
                last = it.next();
                return last;
            }

            @Override
            public void remove() {
                if (last == null) {
                    throw new IllegalStateException("next() first");
                }
                PriorityWorkQueue.this.remove(last);
                last = null;
            }
        };
    }
}
