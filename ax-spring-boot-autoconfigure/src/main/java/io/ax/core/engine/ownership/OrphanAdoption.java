package io.ax.core.engine.ownership;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.work.Execution;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The takeover of the unfinished work that nodes no longer alive left in this node's partitions (and of rows no node
 * owns): an assignment never acknowledged is assigned again; an attempt that was running ended with its node and runs
 * again here as a takeover (not a failure of its handler: {@link io.ax.core.engine.work.Takeovers}), once a lease and
 * the safety margin have passed since its claim; an attempt that
 * failed before its node decided what follows is decided here; a retry that was waiting runs here after the rest of
 * its back-off. Called on {@code ax-leader} only; {@link #adopted} from any thread.
 */
final class OrphanAdoption {

    private static final System.Logger LOG = EngineLog.get();
    /** The most rows in flight one round reads: the next round reads on. */
    private static final int PAGE = 10_000;

    private final String nodeId;
    private final AxClock clock;
    private final StoreRouter stores;
    /** The tasks this node knows, read only: a row of another task is left for a node that knows it. */
    private final Map<String, AxTask> tasks;

    private final StateWriter writer;
    private final EngineThreads threads;
    private final Dispatcher dispatcher;
    private final InstanceRunner runner;
    private final RemoteHolders holders;
    /** How long after its claim a dead node's RUNNING attempt may still run: a lease and the safety margin. */
    private final Duration runningOutlives;

    private final AtomicLong taken = new AtomicLong();

    OrphanAdoption(
            String nodeId,
            AxClock clock,
            StoreRouter stores,
            Map<String, AxTask> tasks,
            StateWriter writer,
            EngineThreads threads,
            Dispatcher dispatcher,
            InstanceRunner runner,
            RemoteHolders holders,
            Duration runningOutlives) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.stores = stores;
        this.tasks = tasks;
        this.writer = writer;
        this.threads = threads;
        this.dispatcher = dispatcher;
        this.runner = runner;
        this.holders = holders;
        this.runningOutlives = runningOutlives;
    }

    /**
     * One round over the rows in flight of {@code partitions}, each write fenced by {@code term}: the rows of nodes
     * not in {@code alive} are taken over.
     */
    void adopt(Term term, int[] partitions, Set<String> alive) {
        Instant now = clock.instant();
        int adopted = 0;
        // a dead node's running attempts are taken over together: it may leave thousands (claimed into its queues)
        List<InstanceRunner.LostAttempt> lostAttempts = new ArrayList<>();
        // the live nodes' rows are left out by the read: in a busy cluster a page of them would hide the dead ones'
        List<OwnedInstance> inFlight = stores.findHeldByNoneOf(Recovery.IN_FLIGHT, alive, PAGE, partitions);
        for (OwnedInstance o : inFlight) {
            TaskInstance in = o.instance();
            AxTask task = tasks.get(in.taskName());
            if (task == null) {
                continue;
            }
            String gone = "node " + (o.owner() != null ? o.owner() : in.node());
            Due due = new Due(task, in, Math.max(1, in.attempt()));
            Fence fence = term.fenceFor(due.partitionKey());
            if (!fence.any()) {
                continue; // another owner's row
            }
            if (in.state() == InstanceState.RUNNING
                    && now.isBefore(in.updatedAt().plus(runningOutlives))) {
                // a node judged dead by its heartbeat may have claimed it after that heartbeat: its own watch stops
                // the attempt by then, counted from its last heartbeat, so a lease and the margin from the claim
                // (on the cluster's clock) is the latest it can still run. The next round looks again
                continue;
            }
            holders.drop(in.id());
            adopted++;
            switch (in.state()) {
                case DISPATCHED -> {
                    Transition back = RemoteHolders.takenBack(writer, fence, in, o.owner(), gone + " is gone");
                    if (writer.apply(back)) {
                        taken.incrementAndGet();
                        dispatcher.release(due);
                        dispatcher.expect(due);
                        threads.onDispatchThread(() -> dispatcher.dispatchFresh(due));
                    }
                }
                case RUNNING -> {
                    dispatcher.markInFlight(due);
                    taken.incrementAndGet();
                    lostAttempts.add(new InstanceRunner.LostAttempt(
                            new Execution(due, in.attempt(), o.epoch()),
                            gone + " stopped heartbeating while it ran attempt " + in.attempt()
                                    + " (it crashed, froze or lost the store)",
                            o.owner(),
                            fence));
                }
                case FAILED, TIMEOUT -> {
                    // its node recorded the failed attempt and was gone before it decided what follows
                    dispatcher.markInFlight(due);
                    taken.incrementAndGet();
                    runner.retryOrDie(
                            new Execution(due, in.attempt(), o.epoch()),
                            in.state(),
                            "attempt " + in.attempt() + " " + in.state() + "; " + gone
                                    + " stopped heartbeating before it decided what follows",
                            null,
                            0,
                            o.owner(),
                            fence);
                }
                case RETRYING -> {
                    dispatcher.markInFlight(due);
                    taken.incrementAndGet();
                    Duration backoff = task.retry().delayBeforeRetry(Math.max(1, in.attempt()));
                    Duration left = Duration.between(now, in.updatedAt().plus(backoff));
                    int attempt = in.attempt() + 1;
                    String from = o.owner();
                    threads.after(
                            left.isNegative() ? Duration.ZERO : left,
                            () -> dispatcher.dispatch(due, InstanceState.RETRYING, attempt, from, fence));
                }
                default -> {}
            }
        }
        runner.afterLostAttempts(lostAttempts);
        if (adopted > 0) {
            LOG.log(Level.INFO, "Node {0} took over {1} instance(s) of nodes that are gone", nodeId, adopted);
        }
    }

    /** Instances taken over from nodes that were gone, since this node started. */
    long adopted() {
        return taken.get();
    }
}
