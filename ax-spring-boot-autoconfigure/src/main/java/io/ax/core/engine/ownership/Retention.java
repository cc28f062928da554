package io.ax.core.engine.ownership;

import io.ax.core.clock.AxClock;
import io.ax.core.engine.RetentionSettings;
import io.ax.core.engine.insight.ActivityRollup;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Deletes finished history older than its retention (see {@link InstanceStore#deleteFinished}), on its own thread
 * ({@code ax-retention-1}), while this node leads: one node does the work, and were two to overlap for a moment (a
 * change of leader) nothing breaks, as every deletion is conditional. Every interval it deletes a batch; while
 * batches come back full it goes on, each batch its own short transaction, pausing after each as long as it took
 * (at least {@link #MIN_PAUSE}): retention then holds at most about half of one connection, and the writers get
 * the tables in between, however fast or slow the database is.
 *
 * <p>The activity rollup (see {@link ActivityRollup}) is kept {@link #ACTIVITY_KEPT}: the charts show a day at most.
 * Each round deletes one batch of its older rows beside the instances'.
 *
 * <p>A failure (the database is down, a deadlock) is logged at WARNING once per outage, when it begins, and at
 * INFO when retention works again; the next interval simply tries again. Nothing is thrown out of the thread.
 */
public final class Retention {

    private static final System.Logger LOG = EngineLog.get();
    /** The least pause between two full batches. */
    static final Duration MIN_PAUSE = Duration.ofMillis(10);

    /** How long the activity rollup's rows are kept: the longest chart shows a day; a second day is slack. */
    static final Duration ACTIVITY_KEPT = Duration.ofDays(2);

    private final InstanceStore store;
    private final ActivityStore activity;
    private final RetentionSettings settings;
    private final AxClock clock;
    /** This node's leader epoch; 0 while it does not lead. */
    private final LongSupplier leaderEpoch;

    private final Insight insight;
    private final ScheduledThreadPoolExecutor thread;
    /** Whether the last batch failed: an outage is logged once, when it begins. */
    private volatile boolean failing;

    public Retention(
            InstanceStore store,
            ActivityStore activity,
            RetentionSettings settings,
            AxClock clock,
            LongSupplier leaderEpoch,
            Insight insight) {
        this.store = store;
        this.activity = activity;
        this.settings = settings;
        this.clock = clock;
        this.leaderEpoch = leaderEpoch;
        this.insight = insight;
        this.thread = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("ax-retention-", true));
    }

    /** Starts the first round one interval from now; does nothing when retention is disabled. */
    public void start() {
        if (settings.enabled()) {
            schedule(settings.interval());
        }
    }

    /** Stops at once: a batch in its transaction is interrupted or rolled back, and done again by the next leader. */
    public void stop() {
        thread.shutdownNow();
    }

    private void schedule(Duration delay) {
        try {
            thread.schedule(this::round, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            // the engine stops
        }
    }

    /** One batch on ax-retention, then the next one: soon after a full batch, else after the interval. */
    private void round() {
        Duration next = settings.interval();
        try {
            long started = clock.nanoTime();
            if (deleteBatch() >= settings.batchSize()) {
                Duration took = Duration.ofNanos(clock.nanoTime() - started);
                next = took.compareTo(MIN_PAUSE) > 0 ? took : MIN_PAUSE;
            }
        } catch (RuntimeException | Error e) {
            failed(e);
        } finally {
            schedule(next);
        }
    }

    /**
     * Deletes one batch of expired history, if this node leads.
     *
     * @return how many instances (and orphaned dead letters) or rows of the activity rollup were deleted; 0 when
     *     this node does not lead
     */
    int deleteBatch() {
        if (leaderEpoch.getAsLong() == 0) {
            return 0;
        }
        Instant now = clock.instant();
        int deleted =
                store.deleteFinished(now.minus(settings.finished()), now.minus(settings.dead()), settings.batchSize());
        int rolledUp = activity.deleteBefore(now.minus(ACTIVITY_KEPT), settings.batchSize());
        if (failing) {
            failing = false;
            LOG.log(Level.INFO, "Retention deletes old history again");
        }
        if (deleted > 0) {
            insight.retentionDeleted(deleted);
            LOG.log(Level.DEBUG, "Retention deleted {0} finished instance(s)", deleted);
        }
        if (rolledUp > 0) {
            LOG.log(Level.DEBUG, "Retention deleted {0} row(s) of the activity rollup", rolledUp);
        }
        return Math.max(deleted, rolledUp);
    }

    private void failed(Throwable e) {
        if (thread.isShutdown()) {
            // the engine stops, and the database may be closing under the batch: no outage to report
            LOG.log(Level.DEBUG, "Retention stopped in a batch: {0}", e.toString());
            return;
        }
        if (!failing) {
            failing = true;
            LOG.log(
                    Level.WARNING,
                    "Retention could not delete old history; trying again every {0} (logged once until it works): {1}",
                    settings.interval(),
                    e.toString());
        } else {
            LOG.log(Level.DEBUG, "Retention still fails: {0}", e.toString());
        }
    }
}
