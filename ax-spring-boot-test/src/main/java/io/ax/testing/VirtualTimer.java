package io.ax.testing;

import io.ax.core.logging.Loggers;
import io.ax.core.wheel.AxTimer;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The engine's timer in a test. Its thread never waits on real time: it hands on what is due by the test's clock and
 * sleeps until a schedule or the tester wakes it. So a fire an hour away runs as soon as the test moves the clock
 * there, and the tester can read the next deadline to move the clock to it, one step at a time.
 *
 * <p>A sorted map keeps the entries (the timing wheel's O(1) matters at a million entries, not in a test).
 */
final class VirtualTimer implements AxTimer<Object> {

    private static final System.Logger LOG = Loggers.get(VirtualTimer.class.getName());

    private record Key(long deadline, long handle) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            // the test's clock starts at 0 nanoseconds and never wraps: plain order is the order of time
            int byTime = Long.compare(deadline, o.deadline);
            return byTime != 0 ? byTime : Long.compare(handle, o.handle);
        }
    }

    private final LongSupplier nanoClock;
    private final Consumer<Object> dispatcher;
    private final Thread thread;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final TreeMap<Key, Object> entries = new TreeMap<>();
    private final Map<Long, Key> keys = new HashMap<>();
    private final AtomicLong failures = new AtomicLong();
    /** Every schedule, move, cancel and hand-on: the tester waits until it stops changing. */
    private final AtomicLong activity = new AtomicLong();

    private long nextHandle = 1;
    private boolean started;
    private boolean closed;
    private boolean dispatching;

    VirtualTimer(LongSupplier nanoClock, Consumer<Object> dispatcher, String threadName) {
        this.nanoClock = nanoClock;
        this.dispatcher = dispatcher;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    @Override
    public void start() {
        lock.lock();
        try {
            if (started) {
                throw new IllegalStateException("the timer was started already");
            }
            started = true;
        } finally {
            lock.unlock();
        }
        thread.start();
    }

    @Override
    public long schedule(long deadlineNanos, Object payload) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the timer is closed");
            }
            long handle = nextHandle++;
            Key key = new Key(deadlineNanos, handle);
            entries.put(key, payload);
            keys.put(handle, key);
            activity.incrementAndGet();
            changed.signalAll();
            return handle;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean cancel(long handle) {
        lock.lock();
        try {
            Key key = keys.remove(handle);
            if (key == null) {
                return false;
            }
            entries.remove(key);
            activity.incrementAndGet();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean reschedule(long handle, long deadlineNanos) {
        lock.lock();
        try {
            Key key = keys.get(handle);
            if (key == null) {
                return false;
            }
            Object payload = entries.remove(key);
            Key moved = new Key(deadlineNanos, handle);
            entries.put(moved, payload);
            keys.put(handle, moved);
            activity.incrementAndGet();
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object payload(long handle) {
        lock.lock();
        try {
            Key key = keys.get(handle);
            return key == null ? null : entries.get(key);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long nowNanos() {
        return nanoClock.getAsLong();
    }

    @Override
    public long dispatchFailures() {
        return failures.get();
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            entries.clear();
            keys.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The earliest deadline of what waits, if anything does. */
    OptionalLong nextDeadline() {
        lock.lock();
        try {
            return entries.isEmpty()
                    ? OptionalLong.empty()
                    : OptionalLong.of(entries.firstKey().deadline());
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is due by the clock and nothing is being handed on. */
    boolean settled() {
        lock.lock();
        try {
            return !dispatching && (entries.isEmpty() || entries.firstKey().deadline() - nanoClock.getAsLong() > 0);
        } finally {
            lock.unlock();
        }
    }

    /** For a failure message: how many entries wait, the next one's distance, whether it is handing on. */
    String describe() {
        lock.lock();
        try {
            String next = entries.isEmpty()
                    ? "none"
                    : java.time.Duration.ofNanos(entries.firstKey().deadline() - nanoClock.getAsLong()) + " ahead";
            return entries.size() + " entries, the next " + next + (dispatching ? ", handing on" : "");
        } finally {
            lock.unlock();
        }
    }

    /** A counter that moves with every change of the entries. */
    long activity() {
        return activity.get();
    }

    /** The clock moved: hand on what is due now. */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        List<Object> due = new ArrayList<>();
        while (true) {
            lock.lock();
            try {
                dispatching = false;
                while (!closed && !takeDue(due)) {
                    changed.awaitUninterruptibly();
                }
                if (closed) {
                    return;
                }
                dispatching = true;
            } finally {
                lock.unlock();
            }
            for (Object payload : due) {
                try {
                    dispatcher.accept(payload);
                } catch (Throwable e) { // the engine's dispatcher: keep the thread alive, as the wheel does
                    failures.incrementAndGet();
                    LOG.log(Level.WARNING, "The engine's dispatcher threw; the test timer goes on", e);
                }
            }
            due.clear();
        }
    }

    /** Under the lock: moves what is due into {@code due}; false when nothing is. */
    private boolean takeDue(List<Object> due) {
        long now = nanoClock.getAsLong();
        while (!entries.isEmpty() && entries.firstKey().deadline() - now <= 0) {
            Map.Entry<Key, Object> first = entries.pollFirstEntry();
            keys.remove(first.getKey().handle());
            due.add(first.getValue());
        }
        if (!due.isEmpty()) {
            activity.incrementAndGet();
        }
        return !due.isEmpty();
    }
}
