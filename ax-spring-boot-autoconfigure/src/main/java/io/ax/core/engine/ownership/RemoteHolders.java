package io.ax.core.engine.ownership;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The instances of this node's partitions that another live node runs or holds DISPATCHED: found when their
 * partition came here (the takeover reads what is in flight), or when a dispatch here lost to an earlier owner's.
 * Each is followed until its node acknowledges it, or, where its end matters here (a non-overlapping task's slot, a
 * fixed-delay series, a workflow run), until it ends. Thread-safe: recorded from ax-leader and the dispatch thread,
 * followed up on ax-leader.
 */
final class RemoteHolders {

    private static final System.Logger LOG = EngineLog.get();

    /** An instance on another node, followed until acknowledged (or, {@code untilEnd}, until it ends). */
    private record Tracked(Due due, String owner, long assignedNanos, boolean untilEnd) {}

    private final String nodeId;
    private final AxClock clock;
    private final StoreRouter stores;
    private final StateWriter writer;
    private final EngineThreads threads;
    private final Workflows workflows;
    private final Dispatcher dispatcher;
    /** An instance of another node ended: its task's slot, its series and its workflow run go on. */
    private final Consumer<Due> ended;
    /** How long a node may leave an instance DISPATCHED to it before it is taken back. */
    private final Duration ackTimeout;

    private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
    private final AtomicLong takenBack = new AtomicLong();

    RemoteHolders(
            String nodeId,
            AxClock clock,
            StoreRouter stores,
            StateWriter writer,
            EngineThreads threads,
            Workflows workflows,
            Dispatcher dispatcher,
            Consumer<Due> ended,
            Duration ackTimeout) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.stores = stores;
        this.writer = writer;
        this.threads = threads;
        this.workflows = workflows;
        this.dispatcher = dispatcher;
        this.ended = ended;
        this.ackTimeout = ackTimeout;
    }

    /** {@code due} is assigned to or runs on {@code owner}, another node: followed from now. */
    void follow(Due due, String owner) {
        boolean untilEnd = !due.task().concurrent() && due.origin() != InstanceOrigin.DELAYED
                || (due.series() && due.task().trigger().measuresFromCompletion())
                || workflows.hasDownstream(due.task().name()); // its end moves a workflow run on
        tracked.put(due.instanceId(), new Tracked(due, owner, clock.nanoTime(), untilEnd));
    }

    /** Whether an instance is followed on another node: its end not heard of here yet. */
    boolean runsElsewhere(String instanceId) {
        Tracked t = tracked.get(instanceId);
        return t != null && !t.owner().equals(nodeId);
    }

    /** An instance is no longer followed: it was taken over here. */
    void drop(String instanceId) {
        tracked.remove(instanceId);
    }

    /** The instances whose partition keys {@code lost} accepts are no longer followed: their partition moved on. */
    void forget(Predicate<String> lost) {
        tracked.values().removeIf(t -> lost.test(t.due().partitionKey()));
    }

    /**
     * On ax-leader, every poll interval: reads the rows of what it follows. One still DISPATCHED to its node past the
     * ack timeout is taken back and dispatched here; one back to SCHEDULED is dispatched here; one that ended frees
     * what waited for it (on the dispatch thread).
     */
    void followUp(Term term) {
        if (tracked.isEmpty()) {
            return;
        }
        // the dispatch thread records assignments while the rows are read: only what was read is judged here (an
        // assignment recorded meanwhile has no row in this read, and is not gone for that), and only if it is still
        // the assignment that was read for
        Map<String, Tracked> read = Map.copyOf(tracked);
        Map<String, OwnedInstance> rows = new HashMap<>();
        for (OwnedInstance o : stores.findAll(read.keySet())) {
            rows.put(o.instance().id(), o);
        }
        long now = clock.nanoTime();
        long ackTimeout = this.ackTimeout.toNanos();
        for (Tracked t : read.values()) {
            if (tracked.get(t.due().instanceId()) != t) {
                continue;
            }
            OwnedInstance row = rows.get(t.due().instanceId());
            if (row == null) {
                tracked.remove(t.due().instanceId(), t);
                continue;
            }
            InstanceState state = row.instance().state();
            if (state == InstanceState.DISPATCHED && t.owner().equals(row.owner())) {
                if (now - t.assignedNanos() > ackTimeout) {
                    takeBack(t, row.instance(), term);
                }
                continue;
            }
            if (state == InstanceState.SCHEDULED) {
                // returned by its owner (it stopped before it started it) or taken back by someone else: its
                // task's slot is free, and it is assigned again now rather than at the next sweep
                if (!tracked.remove(t.due().instanceId(), t)) {
                    continue;
                }
                // with the attempt the row holds: its owner may have failed the one assigned and given back the
                // retry unstarted (attempt 2 would otherwise run again as attempt 1)
                Due again = new Due(t.due().task(), row.instance());
                dispatcher.expect(again);
                threads.onDispatchThread(() -> {
                    dispatcher.release(t.due());
                    dispatcher.dispatchFresh(again);
                });
                continue;
            }
            if (state == InstanceState.DISPATCHED) {
                tracked.remove(t.due().instanceId(), t); // taken back and assigned again by someone else
                continue;
            }
            if (!t.untilEnd()) {
                tracked.remove(t.due().instanceId(), t);
            } else if (state.isFinal() && tracked.remove(t.due().instanceId(), t)) {
                threads.onDispatchThread(() -> ended.accept(t.due()));
            }
        }
    }

    private void takeBack(Tracked t, TaskInstance in, Term term) {
        Fence fence = term.fenceFor(t.due().partitionKey());
        if (!fence.any()) {
            return; // its partition is not this term's: its owner follows it
        }
        Transition back = takenBack(
                writer, fence, in, t.owner(), "node " + t.owner() + " did not acknowledge within " + this.ackTimeout);
        tracked.remove(in.id(), t);
        if (writer.apply(back)) {
            takenBack.incrementAndGet();
            LOG.log(
                    Level.WARNING,
                    "Node {0} did not acknowledge instance {1} in time; assigning it again",
                    t.owner(),
                    in.id());
            dispatcher.release(t.due());
            Due again = new Due(t.due().task(), in, Math.max(1, in.attempt()));
            dispatcher.expect(again);
            threads.onDispatchThread(() -> dispatcher.dispatchFresh(again));
        }
    }

    /**
     * The change that takes an instance DISPATCHED to {@code from} back to SCHEDULED, as {@code fence}'s decision and
     * conditional on {@code from} still holding it, to be assigned again; {@code why} says why it is taken.
     */
    static Transition takenBack(StateWriter writer, Fence fence, TaskInstance in, String from, String why) {
        return fence.takenFrom(
                writer.change(
                        in.id(),
                        InstanceState.DISPATCHED,
                        InstanceState.SCHEDULED,
                        in.attempt(),
                        "taken back: " + why + "; assigning again"),
                from,
                null);
    }

    /** Instances taken back from a node that did not acknowledge them in time, since this node started. */
    long takenBack() {
        return takenBack.get();
    }
}
