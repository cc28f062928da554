package io.ax.core.wheel;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Fires payloads at their deadlines from one named daemon thread, which owns a hierarchical timing wheel.
 *
 * <p>{@link #schedule(long, Object)} and {@link #cancel(long)} may be called from any thread; each is O(1) and
 * holds a lock briefly. The tick thread advances the wheel to the clock's reading, hands every due payload to the
 * dispatcher, then parks until the next deadline (or, when nothing is pending, until a schedule wakes it). It never
 * sleeps a fixed tick, so pauses do not accumulate drift, and an earlier deadline wakes it at once.
 *
 * <p>The dispatcher runs on the tick thread, outside the lock, and <b>must not block</b>: it should hand the
 * payload to a bounded pool and return. A dispatcher that throws is logged and counted and the timer goes on; the
 * payload that caused it is not retried.
 *
 * <p>Deadlines are in the terms of the injected nano clock ({@code System::nanoTime} in production): arbitrary
 * longs, compared by subtraction, so the clock may start anywhere and wrap.
 *
 * @param <T> the payload type; payloads are never {@code null}
 */
public final class WheelTimer<T> implements AxTimer<T> {

    private static final System.Logger LOG = logger();
    private static final long JOIN_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(5);
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int CLOSED = 2;

    /**
     * Guards {@link #wheel} (which is not thread-safe) and the tick thread's wake-up plan ({@link #idle}, {@link
     * #wakeAtNanos}), so that a caller scheduling an earlier deadline sees what the tick thread will park for. Held
     * for one O(1) operation or one advance; never while dispatching.
     */
    private final ReentrantLock lock = new ReentrantLock();

    private final TimingWheel<T> wheel;
    private boolean idle = true; // guarded by lock: the tick thread parks until woken
    private long wakeAtNanos; // guarded by lock: when not idle, the tick thread parks until then
    /**
     * Counts the wake-ups schedules asked for. The tick thread compares it before parking: the permit of
     * {@link LockSupport#unpark} may have been used up meanwhile by any park inside the dispatcher (a contended
     * lock, a queue), and parking without it would sleep through an earlier deadline, or forever.
     */
    private volatile long wakeUps;

    private final LongSupplier nanoClock;
    private final Consumer<? super T> dispatcher;
    private final String name;
    private final Thread thread;
    private final ArrayList<T> due = new ArrayList<>(); // tick thread only
    private final AtomicInteger state = new AtomicInteger(NEW);
    private final AtomicLong dispatchFailures = new AtomicLong();

    /**
     * Creates a timer; call {@link #start()} to start its thread.
     *
     * @param tick the span of the wheel's finest bucket, positive (AX uses 1 ms); deadlines still fire at their
     *     exact time, the tick only sets how coarsely entries are bucketed
     * @param nanoClock the only time source, in {@code System.nanoTime()} terms; tests pass a fake
     * @param dispatcher receives each due payload on the tick thread; must not block
     * @param threadName the name of the tick thread, not blank
     * @throws IllegalArgumentException if the tick is not positive or the name is blank
     */
    public WheelTimer(Duration tick, LongSupplier nanoClock, Consumer<? super T> dispatcher, String threadName) {
        Objects.requireNonNull(tick, "tick");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        Objects.requireNonNull(threadName, "threadName");
        if (threadName.isBlank()) {
            throw new IllegalArgumentException("threadName must not be blank");
        }
        if (tick.isNegative() || tick.isZero()) {
            throw new IllegalArgumentException("tick must be positive but was " + tick);
        }
        this.name = threadName;
        this.wheel = new TimingWheel<>(tick.toNanos(), nanoClock.getAsLong());
        this.thread = new Thread(this::runTickLoop, threadName);
        this.thread.setDaemon(true);
    }

    /**
     * Starts the tick thread.
     *
     * @throws IllegalStateException if already started or closed
     */
    @Override
    public void start() {
        if (!state.compareAndSet(NEW, RUNNING)) {
            throw new IllegalStateException("wheel timer '" + name + "' was already started or closed");
        }
        thread.start();
    }

    /**
     * Schedules a payload, in O(1), from any thread. Before {@link #start()} the entry waits for the thread.
     *
     * @param deadlineNanos when to dispatch, in the clock's terms; a deadline already past is dispatched at once
     * @param payload what to hand to the dispatcher, not {@code null}
     * @return a handle for {@link #cancel(long)}
     * @throws IllegalStateException if the timer is closed
     */
    @Override
    public long schedule(long deadlineNanos, T payload) {
        Objects.requireNonNull(payload, "payload");
        if (state.get() == CLOSED) {
            throw new IllegalStateException("wheel timer '" + name + "' is closed");
        }
        long handle;
        boolean wake;
        lock.lock();
        try {
            handle = wheel.schedule(deadlineNanos, payload);
            wake = wakeUpFor(deadlineNanos);
        } finally {
            lock.unlock();
        }
        if (wake) {
            LockSupport.unpark(thread);
        }
        return handle;
    }

    /**
     * Under the lock: whether the tick thread must wake up earlier than planned for an entry due at {@code
     * deadlineNanos}; if so, it is told (see {@code wakeUps} in the tick loop) and the caller unparks it.
     */
    private boolean wakeUpFor(long deadlineNanos) {
        if (!idle && deadlineNanos - wakeAtNanos >= 0) {
            return false;
        }
        idle = false;
        wakeAtNanos = deadlineNanos;
        wakeUps++;
        return true;
    }

    /**
     * Cancels a pending entry, in O(1), from any thread. A cancelled entry is never dispatched.
     *
     * @param handle a handle returned by {@link #schedule(long, Object)}
     * @return {@code true} if the entry was pending; {@code false} if it was already dispatched or cancelled
     */
    @Override
    public boolean cancel(long handle) {
        lock.lock();
        try {
            return wheel.cancel(handle);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves a pending entry to another deadline, in O(1), from any thread, keeping its handle.
     *
     * @return {@code true} if the entry was pending; {@code false} if it was already dispatched or cancelled
     */
    @Override
    public boolean reschedule(long handle, long deadlineNanos) {
        boolean moved;
        boolean wake;
        lock.lock();
        try {
            moved = wheel.reschedule(handle, deadlineNanos);
            wake = moved && wakeUpFor(deadlineNanos);
        } finally {
            lock.unlock();
        }
        if (wake) {
            LockSupport.unpark(thread);
        }
        return moved;
    }

    /** The payload of a pending entry, or {@code null} if it was already dispatched or cancelled. */
    @Override
    public T payload(long handle) {
        lock.lock();
        try {
            return wheel.payload(handle);
        } finally {
            lock.unlock();
        }
    }

    /** The number of entries not yet dispatched nor cancelled. */
    @Override
    public int size() {
        lock.lock();
        try {
            return wheel.size();
        } finally {
            lock.unlock();
        }
    }

    /** The clock's current reading: the time base for deadlines. */
    @Override
    public long nowNanos() {
        return nanoClock.getAsLong();
    }

    /** How many times the dispatcher has thrown since the timer was created. */
    @Override
    public long dispatchFailures() {
        return dispatchFailures.get();
    }

    /**
     * Stops the tick thread and waits a bounded time for it to end. Pending entries are dropped. Idempotent; may
     * be called from the dispatcher.
     */
    @Override
    public void close() {
        int previous = state.getAndSet(CLOSED);
        if (previous != RUNNING || Thread.currentThread() == thread) {
            return;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(JOIN_TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (thread.isAlive()) {
            LOG.log(
                    Level.WARNING,
                    "Tick thread of wheel timer ''{0}'' did not stop within {1} ms; is the dispatcher blocking?",
                    name,
                    JOIN_TIMEOUT_MILLIS);
        }
    }

    private void runTickLoop() {
        Consumer<T> collect = due::add;
        while (state.get() == RUNNING) {
            boolean parkIdle;
            long parkUntil;
            long seenWakeUps;
            lock.lock();
            try {
                wheel.advance(nanoClock.getAsLong(), collect);
                OptionalLong next = wheel.nextDeadline();
                idle = next.isEmpty();
                wakeAtNanos = next.orElse(0L);
                parkIdle = idle;
                parkUntil = wakeAtNanos;
                seenWakeUps = wakeUps;
            } finally {
                lock.unlock();
            }
            dispatchDue();
            if (state.get() != RUNNING) {
                break;
            }
            if (wakeUps != seenWakeUps) {
                continue; // a schedule asked for an earlier wake-up while we dispatched: its permit may be gone
            }
            // A schedule made from here on unparks us, and its permit makes this park return.
            if (parkIdle) {
                LockSupport.park(this);
            } else {
                long waitNanos = parkUntil - nanoClock.getAsLong();
                if (waitNanos > 0) {
                    LockSupport.parkNanos(this, waitNanos);
                }
            }
            if (Thread.currentThread().isInterrupted()) {
                LOG.log(Level.WARNING, "Tick thread of wheel timer ''{0}'' was interrupted; it stops", name);
                state.set(CLOSED); // later schedules fail loudly instead of waiting forever
                break; // the interrupt flag stays set
            }
        }
    }

    private void dispatchDue() {
        try {
            for (int i = 0; i < due.size(); i++) {
                T payload = due.get(i);
                try {
                    dispatcher.accept(payload);
                } catch (Throwable e) { // the dispatcher is foreign code: keep the tick thread alive
                    long failures = dispatchFailures.incrementAndGet();
                    LOG.log(
                            Level.WARNING,
                            () -> "Dispatcher of wheel timer '" + name + "' threw (failure " + failures
                                    + "); the timer goes on",
                            e);
                }
            }
        } finally {
            due.clear();
        }
    }

    /**
     * As {@code io.ax.core.logging.Loggers} finds it, the wheel depending on nothing but the JDK: the provider of this
     * class's own loader (SLF4J's, in an application), which the JDK's lookup misses in an executable jar.
     */
    private static System.Logger logger() {
        String name = WheelTimer.class.getName();
        try {
            for (System.LoggerFinder finder :
                    java.util.ServiceLoader.load(System.LoggerFinder.class, WheelTimer.class.getClassLoader())) {
                return finder.getLogger(name, WheelTimer.class.getModule());
            }
        } catch (java.util.ServiceConfigurationError e) {
            // the JDK's own, below
        }
        return System.getLogger(name);
    }
}
