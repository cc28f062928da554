package io.ax.core.engine.scheduling;

import io.ax.core.AxTask;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.engine.threads.OneThread;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Keeps the prefetch window loaded: the store holds the far future, the wheel only what falls due within the
 * window. Every refresh loads, in pages read in due-time order from an index, the SCHEDULED instances due before now
 * plus the window that were not loaded yet, up to a limit of instances waiting in the wheel.
 *
 * <p>The horizon is published before each load reads the store, and whoever writes an instance due before the
 * horizon puts it into the wheel itself ({@link #covers}). So an instance written while a load runs is either seen
 * by the load or put into the wheel by its writer (or both: the wheel drops the second). A page is read once; what
 * is written behind the load's position is always before the horizon, hence its writer's job.
 */
public final class Prefetcher {

    private static final System.Logger LOG = EngineLog.get();
    private static final int SWEEP_PAGE = 1_000;
    private static final int SWEEP_PAGES = 100;
    /** Pages in a row without a new row after which a sweep stops (the next one goes on from there). */
    private static final int BARREN_PAGES = 3;

    /**
     * What the prefetcher needs of the rest of the engine: whether to load at all, and where loaded instances go.
     * Called on {@code ax-prefetch}, and on the leader's thread during a takeover.
     */
    public interface Wheel {
        /**
         * Whether this node decides rows now: it leads (and loads every row), or owns partitions (and loads theirs);
         * a node that does neither runs what is assigned to it.
         */
        boolean leads();

        /**
         * The partitions whose rows this node loads, by number; null for every row (the leader's). Asked at every
         * page, so that a partition gained or lost meanwhile counts from the next page on.
         */
        int[] partitions();

        /** How many instances wait in the wheel for their time. */
        int queued();

        /** Whether the instance is on its way to dispatch already. */
        boolean expects(String instanceId);

        /** Puts the instance into the wheel; false when it is there already. */
        boolean enqueue(Due due);

        /**
         * An instance the store has held SCHEDULED and overdue for a long while, which this node takes for on its way
         * (in the wheel, or to dispatch): what it holds of it is dropped and it is dispatched again, unless it waits
         * here for a permit (then its claims wait in the store's order). Its claim is conditional, so a dispatch that
         * was on its way after all loses nothing.
         */
        default void dispatchAgain(Due due) {}
    }

    private final InstanceStore store;
    private final AxClock clock;
    private final Map<String, AxTask> tasks;
    private final Predicate<String> paused;
    private final Wheel wheel;
    private final Duration window;
    private final int pageSize;
    private final int limit;
    private final ScheduledThreadPoolExecutor thread;

    /** Every SCHEDULED instance due before it has been loaded, is being loaded, or is put into the wheel by its writer. */
    private volatile Instant horizon = Instant.MIN;
    /** The last instance loaded, in (due time, id) order; touched by one load at a time. */
    private Instant cursorTime;

    private String cursorId;
    /** Where the next sweep for overdue instances goes on; null: from the start. Guarded by this. */
    private Instant sweepAfterTime;

    private String sweepAfterId;
    private final Set<String> unknownTasks = ConcurrentHashMap.newKeySet();
    /**
     * How long a sweep leaves an overdue row to what this node holds of it (the wheel, the dispatch) before it takes
     * that for lost: half the window (a row's whole way from the store to a worker), 5 to 30 s; far beyond the
     * dispatch of a loaded node, short beside an operator's patience.
     */
    private final Duration stuckAfter;
    /** Overdue rows a sweep left to what holds them here, with when it first did; guarded by this. */
    private final Map<String, Long> leftSince = new java.util.HashMap<>();
    /** The most rows {@link #leftSince} keeps: beyond, the oldest go (and are judged later). */
    private static final int LEFT_KEPT = 100_000;
    /** How many rows the sweeps dispatched again since this node started. */
    private final java.util.concurrent.atomic.AtomicLong dispatchedAgain = new java.util.concurrent.atomic.AtomicLong();

    private volatile boolean failing;
    /** Whether the last load stopped at the limit, with more to load. */
    private volatile boolean capped;
    /** Whether the last load read everything due before its horizon; guarded by this object. */
    private boolean readToHorizon;

    private final AtomicBoolean refillRequested = new AtomicBoolean();
    private final AtomicBoolean rewindRequested = new AtomicBoolean();

    /**
     * @param tasks the registered tasks, as they change (read only)
     * @param paused whether a task is paused
     */
    public Prefetcher(
            InstanceStore store,
            AxClock clock,
            Map<String, AxTask> tasks,
            Predicate<String> paused,
            Wheel wheel,
            Duration window,
            int pageSize,
            int limit) {
        this.store = store;
        this.clock = clock;
        this.tasks = tasks;
        this.paused = paused;
        this.wheel = wheel;
        this.window = window;
        this.pageSize = pageSize;
        this.limit = limit;
        Duration half = window.dividedBy(2);
        this.stuckAfter = half.compareTo(Duration.ofSeconds(5)) < 0
                ? Duration.ofSeconds(5)
                : half.compareTo(Duration.ofSeconds(30)) > 0 ? Duration.ofSeconds(30) : half;
        this.thread = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("ax-prefetch", true));
        this.thread.setRemoveOnCancelPolicy(true);
    }

    /** Whether no one-off work waits for or runs on {@code ax-prefetch}: only its periodic round is queued. */
    public boolean idle() {
        return OneThread.idle(thread);
    }

    /** Whether an instance due at {@code time} belongs in the wheel now, rather than waiting in the store. */
    public boolean covers(Instant time) {
        return time.isBefore(horizon);
    }

    /** Keeps the window loaded from the {@code ax-prefetch} thread, while this node leads. */
    public void start() {
        long every = refreshInterval().toNanos();
        thread.scheduleWithFixedDelay(this::refresh, every, every, TimeUnit.NANOSECONDS);
    }

    /**
     * Partitions became this node's: loads the window from scratch, on the calling thread, handing each to {@code
     * loaded}.
     */
    public synchronized void takeOver(Consumer<TaskInstance> loaded) {
        reset();
        load(loaded);
    }

    /** Nothing is loaded: the next load reads the window from its start. */
    private void reset() {
        horizon = Instant.MIN;
        cursorTime = null;
        cursorId = null;
        sweepAfterTime = null;
        sweepAfterId = null;
        capped = false;
        readToHorizon = false;
    }

    /**
     * Another node wrote work inside this leader's window: the next load reads the window again from its start (what
     * is in the wheel already is left out there), on the {@code ax-prefetch} thread, soon. Calls while one is
     * pending are one.
     */
    public void rewind() {
        if (!rewindRequested.compareAndSet(false, true)) {
            return;
        }
        try {
            thread.execute(() -> {
                rewindRequested.set(false);
                synchronized (this) {
                    cursorTime = null;
                    cursorId = null;
                    readToHorizon = false;
                }
                refresh();
            });
        } catch (RejectedExecutionException stopped) {
            rewindRequested.set(false);
        }
    }

    public void stop() {
        thread.shutdownNow();
    }

    /** How often the window moves on: often enough that each instance is loaded long before it falls due. */
    Duration refreshInterval() {
        Duration quarter = window.dividedBy(4);
        Duration atMost = Duration.ofSeconds(5);
        Duration atLeast = Duration.ofMillis(50);
        return quarter.compareTo(atMost) > 0 ? atMost : quarter.compareTo(atLeast) < 0 ? atLeast : quarter;
    }

    /** The wheel drained: a load that stopped at the limit goes on now, not at the next refresh. */
    public void drained(int queued) {
        if (capped && queued < limit / 2 && refillRequested.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    refillRequested.set(false);
                    refresh();
                });
            } catch (RejectedExecutionException stopped) {
                refillRequested.set(false);
            }
        }
    }

    private void refresh() {
        if (!wheel.leads()) {
            return; // the nodes that decide rows load them; the others run what is assigned to them
        }
        try {
            load(instance -> enqueue(instance));
            if (!capped) {
                sweep();
            }
            if (failing) {
                failing = false;
                LOG.log(Level.INFO, "AX loads its prefetch window from the store again");
            }
        } catch (RuntimeException e) {
            if (thread.isShutdown()) {
                return; // the engine stops: an interrupted read is no failure
            }
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, "AX could not load its prefetch window; retrying: {0}", e.toString());
            }
        }
    }

    /** Loads pages after the cursor and before the new horizon, while the wheel holds fewer than the limit. */
    synchronized void load(Consumer<TaskInstance> loaded) {
        Instant previous = horizon;
        if (readToHorizon && (cursorTime == null || cursorTime.isBefore(previous))) {
            // the last load read everything due before its horizon, and writers put into the wheel what they wrote
            // before it since: start there, not at the last row read, or their rows would be read again
            cursorTime = previous;
            cursorId = "";
        }
        Instant target = clock.instant().plus(window);
        if (target.isAfter(horizon)) {
            horizon = target;
        }
        Instant before = horizon;
        capped = false;
        readToHorizon = false; // until this load reads its last page: a load that fails or stops early resumes
        while (true) {
            if (wheel.queued() >= limit) {
                capped = true;
                return;
            }
            List<TaskInstance> page = scheduled(before, cursorTime, cursorId, pageSize);
            for (TaskInstance instance : page) {
                loaded.accept(instance);
            }
            if (!page.isEmpty()) {
                TaskInstance last = page.get(page.size() - 1);
                cursorTime = last.scheduledTime();
                cursorId = last.id();
            }
            if (page.size() < pageSize) {
                readToHorizon = true;
                return;
            }
        }
    }

    /**
     * Reads, from the start of the due-time index, instances that are overdue yet still SCHEDULED and not in the
     * wheel, and runs them: what another process wrote inside this node's window (it cannot reach this wheel), or
     * what a failed store write left behind. One page per refresh, and none while a backlog is being loaded.
     */
    private void sweep() {
        sweepOverdue(refreshInterval().multipliedBy(2));
    }

    /**
     * Runs what is SCHEDULED, overdue by more than {@code lag} and not in the wheel: written by another node inside
     * this node's window, or left by a failed write. One page.
     */
    public synchronized void sweepOverdue(Duration lag) {
        if (horizon.equals(Instant.MIN)) {
            return; // not loaded: this node does not lead, or has only just begun to
        }
        Instant overdue = clock.instant().minus(lag);
        int found = 0;
        int page = Math.min(pageSize, SWEEP_PAGE);
        // small pages, read on while they bring new rows: in a burst of this leader's own, the overdue rows are mostly
        // in the wheel already; a burst another node wrote is read through in one sweep. Each sweep goes on where
        // the last one stopped, so rows it leaves (a paused task's, an unknown task's, catch-ups waiting for their
        // task) cannot hide the rows behind them for good
        int barren = 0;
        long now = clock.nanoTime();
        int again = 0;
        for (int pages = 0; pages < SWEEP_PAGES; pages++) {
            List<TaskInstance> rows = scheduled(overdue, sweepAfterTime, sweepAfterId, page);
            int before = found;
            for (TaskInstance instance : rows) {
                if (paused.test(instance.taskName())) {
                    continue;
                }
                if (enqueue(instance)) {
                    found++;
                    leftSince.remove(instance.id());
                } else if (dispatchAgainIfStuck(instance, now)) {
                    again++;
                }
            }
            if (rows.size() < page) {
                sweepAfterTime = null; // read to the end: the next sweep starts over
                sweepAfterId = null;
                break;
            }
            sweepAfterTime = rows.get(rows.size() - 1).scheduledTime();
            sweepAfterId = rows.get(rows.size() - 1).id();
            if (found == before && ++barren >= BARREN_PAGES) {
                break;
            }
        }
        forgetOldLeft(now);
        if (again > 0) {
            dispatchedAgain.addAndGet(again);
            LOG.log(
                    Level.WARNING,
                    "AX found {0} instance(s) SCHEDULED and overdue in the store that this node had held as on their"
                            + " way for more than {1} s, yet never dispatched; dispatching them again",
                    again,
                    stuckAfter.toSeconds());
        }
        if (found > 0) {
            // DEBUG: catch-ups that wait for a long run of their task are found here again and again
            LOG.log(
                    Level.DEBUG,
                    "AX found {0} overdue instance(s) that were not in its wheel (written by another process, or"
                            + " left by a failed write); running them now",
                    found);
        }
    }

    /**
     * An overdue row that this node holds as on its way: the first sweep that finds so notes it, one at least {@link
     * #stuckAfter} later dispatches it again. True when it was.
     */
    private boolean dispatchAgainIfStuck(TaskInstance instance, long now) {
        AxTask task = tasks.get(instance.taskName());
        if (task == null) {
            return false;
        }
        Long since = leftSince.putIfAbsent(instance.id(), now);
        if (since == null || now - since < stuckAfter.toNanos()) {
            return false;
        }
        leftSince.remove(instance.id());
        wheel.dispatchAgain(new Due(task, instance));
        return true;
    }

    /** Rows noted long ago and not found again (they ran, or the sweep reads elsewhere now) are forgotten. */
    private void forgetOldLeft(long now) {
        long tooOld = stuckAfter.multipliedBy(4).toNanos();
        leftSince.values().removeIf(since -> now - since > tooOld);
        if (leftSince.size() > LEFT_KEPT) {
            leftSince.clear();
        }
    }

    /** Overdue instances the sweeps found held here as on their way for too long, and dispatched again. */
    public long dispatchedAgain() {
        return dispatchedAgain.get();
    }

    /** A page of the SCHEDULED rows this node loads: every row, or its partitions' rows. */
    private List<TaskInstance> scheduled(Instant before, Instant afterTime, String afterId, int limit) {
        int[] mine = wheel.partitions();
        return mine == null
                ? store.findScheduled(before, afterTime, afterId, limit)
                : store.findScheduled(before, afterTime, afterId, limit, mine);
    }

    /** A loaded instance goes into the wheel, if this node knows its task; false when it is there already. */
    private boolean enqueue(TaskInstance instance) {
        AxTask task = tasks.get(instance.taskName());
        if (task == null) {
            if (unknownTasks.add(instance.taskName())) {
                LOG.log(
                        Level.WARNING,
                        "The store holds instances of task ''{0}'', which this node does not know; they wait for a"
                                + " node that knows it",
                        instance.taskName());
            }
            return false;
        }
        if (wheel.expects(instance.id())) {
            return false; // on its way to dispatch already
        }
        return wheel.enqueue(new Due(task, instance));
    }
}
