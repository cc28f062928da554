package io.ax.core.engine.insight;

import io.ax.core.clock.AxClock;
import io.ax.core.engine.DeadLetterCount;
import io.ax.core.engine.DueInStore;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.store.InstanceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Figures of the store that health and insight show (the dead letters, the due instances), kept here with the time they were read,
 * and read again in the background (thread {@code ax-figures}) when asked for once they are older than their refresh
 * period: a caller never waits for the store, which during an outage would hold it for the pool's connection timeout
 * (30 s with HikariCP), far beyond a probe's timeout. A read that fails, or has not answered for a while, is how a
 * caller learns that the store does not answer ({@link #unanswered}). Thread-safe.
 */
public final class StoreFigures {

    /** A read in flight longer than this counts as unanswered. */
    private static final Duration HANGS_AFTER = Duration.ofSeconds(1);
    /** How many due instances are counted at most: beyond, the figure says "more than". */
    static final int DUE_COUNTED_UP_TO = 10_000;
    /** The due instances are read this many dead-letter periods apart: a count over an index, not a lookup. */
    private static final int DUE_PERIODS = 5;

    private final InstanceStore store;
    private final AxClock clock;
    private final Supplier<int[]> ownedPartitions;
    private final long refreshNanos;
    private final ThreadPoolExecutor thread;
    private final AtomicBoolean reading = new AtomicBoolean();

    private volatile DeadLetterCount deadLetters;
    private volatile long readNanos;
    private volatile DueInStore due;
    private volatile long dueReadNanos;
    /** When (monotonic nanos) the read on its way began; meaningful while {@link #reading}. */
    private volatile long readingSinceNanos;
    /** Since when reads fail, and why; null while they answer. */
    private volatile Unanswered failing;

    /**
     * The store does not answer reads.
     *
     * @param since when the first read that did not answer began
     * @param cause the failure, or a note that the read hangs
     */
    public record Unanswered(Instant since, String cause) {}

    /**
     * @param ownedPartitions the partitions this node owns at the moment, whose earliest due row is its own lag; null
     *     when the node's work is not partitioned (then all the store's due rows are its own)
     */
    public StoreFigures(InstanceStore store, AxClock clock, Duration refresh, Supplier<int[]> ownedPartitions) {
        this.store = store;
        this.clock = clock;
        this.ownedPartitions = ownedPartitions;
        this.refreshNanos = refresh.toNanos();
        // one read at a time, none waiting behind it: a second ask while one is on its way is the same ask
        this.thread = new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(1),
                new NamedThreadFactory("ax-figures", true),
                new ThreadPoolExecutor.DiscardPolicy());
    }

    /** The dead letters as last read; empty until the first read answered. Starts a read when they are old. */
    public Optional<DeadLetterCount> deadLetters() {
        DeadLetterCount known = deadLetters;
        if (known == null || failing != null || clock.nanoTime() - readNanos >= refreshNanos) {
            readSoon();
        }
        return Optional.ofNullable(known);
    }

    /**
     * The due instances as last read; empty until the first read answered. Starts a read when they are old. Never
     * waits.
     */
    public Optional<DueInStore> dueInStore() {
        DueInStore known = due;
        if (known == null || failing != null || dueStale()) {
            readSoon();
        }
        return Optional.ofNullable(known);
    }

    private boolean dueStale() {
        return clock.nanoTime() - dueReadNanos >= refreshNanos * DUE_PERIODS;
    }

    /**
     * Whether the store does not answer: the last read failed, or the read on its way has not answered for a while.
     * Never waits.
     */
    public Optional<Unanswered> unanswered() {
        Unanswered failed = failing;
        if (failed != null) {
            return Optional.of(failed);
        }
        long since = readingSinceNanos;
        long waited = clock.nanoTime() - since;
        if (reading.get() && waited >= HANGS_AFTER.toNanos()) {
            return Optional.of(new Unanswered(
                    clock.instant().minusNanos(waited),
                    "a read has not answered for " + TimeUnit.NANOSECONDS.toMillis(waited) + " ms"));
        }
        return Optional.empty();
    }

    /** A dead letter was written or removed: the figure is read again at the next look, not at its period's end. */
    public void changed() {
        readNanos = clock.nanoTime() - refreshNanos;
    }

    private void readSoon() {
        if (!reading.compareAndSet(false, true)) {
            return;
        }
        readingSinceNanos = clock.nanoTime();
        try {
            thread.execute(this::read);
        } catch (RejectedExecutionException stopped) {
            reading.set(false);
        }
    }

    private void read() {
        Instant began = clock.instant();
        try {
            if (deadLetters == null || failing != null || clock.nanoTime() - readNanos >= refreshNanos) {
                long count = store.deadLetterCount();
                deadLetters = new DeadLetterCount(count, clock.instant());
                readNanos = clock.nanoTime();
            }
            if (due == null || failing != null || dueStale()) {
                Instant now = clock.instant();
                io.ax.core.store.DueCount d = store.dueCount(now, DUE_COUNTED_UP_TO);
                int[] owned = ownedPartitions.get();
                Instant oldestHere = owned == null ? d.oldest() : store.oldestDue(now, owned);
                due = new DueInStore(d.count(), d.capped(), d.oldest(), oldestHere, clock.instant());
                dueReadNanos = clock.nanoTime();
            }
            failing = null;
        } catch (RuntimeException e) {
            Unanswered was = failing;
            failing = new Unanswered(was != null ? was.since() : began, e.toString());
        } finally {
            reading.set(false);
        }
    }

    public void stop() {
        thread.shutdownNow();
    }
}
