package io.ax.core.engine.work;

import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
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
 * <p>Both orders are kept (two sorted sets over the same entries), so a take is O(log n) whichever order decides.
 * Thread-safe: one lock, as {@link java.util.concurrent.ArrayBlockingQueue} has.
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
    private final TreeSet<Entry> byPriority =
            new TreeSet<>(Comparator.comparingInt((Entry e) -> -e.priority()).thenComparingLong(Entry::seq));
    private final TreeSet<Entry> byArrival = new TreeSet<>(Comparator.comparingLong(Entry::seq));
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
            if (byArrival.size() >= capacity) {
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
            while (byArrival.size() >= capacity) {
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
            while (byArrival.size() >= capacity) {
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
        byPriority.add(e);
        byArrival.add(e);
        notEmpty.signal();
    }

    @Override
    public Runnable poll() {
        lock.lock();
        try {
            return byArrival.isEmpty() ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (byArrival.isEmpty()) {
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
            while (byArrival.isEmpty()) {
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
        Entry next = next();
        if (next != byPriority.first()) {
            agedStarts++;
        }
        byPriority.remove(next);
        byArrival.remove(next);
        notFull.signal();
        return next.work();
    }

    private Entry next() {
        Entry oldest = byArrival.first();
        return nanoTime.getAsLong() - oldest.sinceNanos() >= overtakeLimitNanos ? oldest : byPriority.first();
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            return byArrival.isEmpty() ? null : next().work();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return byArrival.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int remainingCapacity() {
        lock.lock();
        try {
            return capacity - byArrival.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(Object work) {
        lock.lock();
        try {
            for (Entry e : byArrival) {
                if (e.work() == work || e.work().equals(work)) {
                    byArrival.remove(e);
                    byPriority.remove(e);
                    notFull.signal();
                    return true;
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
            while (n < most && !byArrival.isEmpty()) {
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
            byPriority.forEach(e -> snapshot.add(e.work()));
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
