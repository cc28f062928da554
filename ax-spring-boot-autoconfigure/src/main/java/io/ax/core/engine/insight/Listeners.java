package io.ax.core.engine.insight;

import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.NamedThreadFactory;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Tells the application's listeners (dead letters, clock jumps; through them Spring's {@code @EventListener}s) on
 * a thread of their own ({@code ax-events-1}), so that a slow or stuck listener never delays a fire. The queue is
 * bounded: while it is full, events are dropped and counted, with one warning per run of drops. A listener that
 * takes longer than {@link #SLOW} is named in a warning.
 */
public final class Listeners {

    private static final System.Logger LOG = EngineLog.get();
    static final int CAPACITY = 10_000;
    static final Duration SLOW = Duration.ofSeconds(1);

    private final ThreadPoolExecutor thread = new ThreadPoolExecutor(
            1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(CAPACITY), new NamedThreadFactory("ax-events-", true));

    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean dropping;

    /** Hands an event to each listener, in order, on the events thread; never blocks, never throws. */
    public <E> void publish(String kind, E event, List<Consumer<E>> listeners) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            thread.execute(() -> tell(kind, event, listeners));
            if (dropping) {
                dropping = false;
                LOG.log(Level.INFO, "AX tells its listeners again ({0} event(s) dropped so far)", dropped.get());
            }
        } catch (RejectedExecutionException full) {
            dropped.incrementAndGet();
            if (!dropping && !thread.isShutdown()) {
                dropping = true;
                LOG.log(
                        Level.WARNING,
                        "AX drops {0} events: its listeners fall behind by {1} events (a listener is slow or stuck)",
                        kind,
                        CAPACITY);
            }
        }
    }

    private static <E> void tell(String kind, E event, List<Consumer<E>> listeners) {
        for (Consumer<E> listener : listeners) {
            long start = System.nanoTime();
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "A {0} listener failed: {1}", kind, e.toString());
            }
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            if (tookMillis >= SLOW.toMillis()) {
                LOG.log(
                        Level.WARNING,
                        "A {0} listener ({1}) took {2} ms; listeners run on their own thread and do not delay"
                                + " scheduling, but events queue behind a slow one",
                        kind,
                        listener.getClass().getName(),
                        tookMillis);
            }
        }
    }

    /** Events dropped because the listeners fell behind. */
    public long dropped() {
        return dropped.get();
    }

    /** Tells what is queued, for at most {@code awaitMillis}, then stops. */
    public void stop(long awaitMillis) {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(awaitMillis, TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
