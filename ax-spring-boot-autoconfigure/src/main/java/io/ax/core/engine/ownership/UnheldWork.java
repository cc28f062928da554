package io.ax.core.engine.ownership;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.work.Execution;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * This node's own rows in flight that nothing here moves on any more: a row RUNNING here whose attempt this node does
 * not hold (its end was lost, or its claim committed though the node heard it failed: a store that went back in time
 * after a failover, a write in doubt), a row RETRYING here whose retry is not on its way, a failed attempt whose next
 * step was never decided. The owner of a row is the only node that knows what it runs, so each node checks its own,
 * and no other node's: the others' dead owners' rows are {@link OrphanAdoption}'s.
 *
 * <p>A row is acted on when two looks, at least {@link #every} apart, found it unchanged (same state, attempt and time
 * of its last change) and not held here: an attempt's end waits in the writer for a moment after its worker is done
 * (or for an outage), and a retry's timer runs out its back-off. No look is taken, and the rows seen are forgotten,
 * while the store refuses writes: the ends queued meanwhile are written first. Every change is conditional on the row
 * still being this node's at that state and attempt, so an end that arrives late, or another node that took the row
 * over, wins. Called on {@code ax-leader} only.
 */
final class UnheldWork {

    private static final System.Logger LOG = EngineLog.get();
    private static final Set<InstanceState> CHECKED =
            EnumSet.of(InstanceState.RUNNING, InstanceState.RETRYING, InstanceState.FAILED, InstanceState.TIMEOUT);
    /** The most rows one look reads: the next look reads on. */
    private static final int PAGE = 10_000;

    /**
     * A row as one look saw it, with a mark of the writes this node had handed its writers by then: a later look acts
     * if the row is the same and each of those writes is settled.
     */
    private record Seen(InstanceState state, int attempt, Instant updatedAt, BooleanSupplier writesSettled) {

        boolean same(TaskInstance in) {
            return state == in.state() && attempt == in.attempt() && updatedAt.equals(in.updatedAt());
        }
    }

    private final String nodeId;
    private final AxClock clock;
    private final InstanceStore store;
    private final Map<String, AxTask> tasks;
    private final Predicate<String> heldHere;
    private final BooleanSupplier storeFailing;
    private final java.util.function.Supplier<BooleanSupplier> writesBarrier;
    private final Dispatcher dispatcher;
    private final InstanceRunner runner;
    private final java.util.function.BiPredicate<String, Integer> succeededHere;
    private final Duration every;

    /** The rows the last look found not moving; touched on ax-leader only. */
    private Map<String, Seen> suspects = Map.of();

    private long lastNanos = Long.MIN_VALUE;
    private volatile long repaired;

    /**
     * @param heldHere whether this node holds an attempt of an instance (claiming it, or in its pool)
     * @param storeFailing whether the store refuses this node's writes now
     * @param writesBarrier a mark of the writes this node's writers hold now, which says when they are all settled
     * @param succeededHere whether this node committed the SUCCESS of an instance's attempt lately: a row RUNNING at
     *     that attempt lost its end, which is written again rather than the attempt run again
     * @param every how long apart two looks are at least: the lease, within which a live node's end reaches the store
     */
    UnheldWork(
            String nodeId,
            AxClock clock,
            InstanceStore store,
            Map<String, AxTask> tasks,
            Predicate<String> heldHere,
            BooleanSupplier storeFailing,
            java.util.function.Supplier<BooleanSupplier> writesBarrier,
            Dispatcher dispatcher,
            InstanceRunner runner,
            java.util.function.BiPredicate<String, Integer> succeededHere,
            Duration every) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.store = store;
        this.tasks = tasks;
        this.heldHere = heldHere;
        this.storeFailing = storeFailing;
        this.writesBarrier = writesBarrier;
        this.dispatcher = dispatcher;
        this.runner = runner;
        this.succeededHere = succeededHere;
        this.every = every;
    }

    /** Looks when {@link #every} has passed since the last look. */
    void tick() {
        long now = clock.nanoTime();
        if (lastNanos != Long.MIN_VALUE && now - lastNanos < every.toNanos()) {
            return;
        }
        lastNanos = now;
        if (storeFailing.getAsBoolean()) {
            suspects = Map.of(); // what the writer holds back goes first: two fresh looks after it
            return;
        }
        look();
    }

    /** Rows moved on since this node started. */
    long repaired() {
        return repaired;
    }

    void look() {
        Instant now = clock.instant();
        List<OwnedInstance> unheld = new ArrayList<>();
        for (OwnedInstance o : store.findOwned(CHECKED, nodeId, PAGE)) {
            String id = o.instance().id();
            if (!InstanceIds.isMemory(id) && nodeId.equals(o.owner()) && !heldHere.test(id)) {
                unheld.add(o);
            }
        }
        // taken once they are found not held: a worker hands its attempt's end to a writer before it lets the attempt
        // go, so the end of each of them, if there is one, is among the writes this mark covers
        BooleanSupplier writes = writesBarrier.get();
        Map<String, Seen> stuck = new HashMap<>();
        List<InstanceRunner.LostAttempt> lost = new ArrayList<>();
        int moved = 0;
        int endsAgain = 0;
        for (OwnedInstance o : unheld) {
            TaskInstance in = o.instance();
            AxTask task = tasks.get(in.taskName());
            if (task == null) {
                continue;
            }
            if (in.state() == InstanceState.RETRYING
                    && now.isBefore(in.updatedAt()
                            .plus(task.retry().delayBeforeRetry(Math.max(1, in.attempt())))
                            .plus(every))) {
                continue; // its retry's timer runs out its back-off
            }
            Seen before = suspects.get(in.id());
            if (before == null || !before.same(in)) {
                stuck.put(in.id(), new Seen(in.state(), in.attempt(), in.updatedAt(), writes));
                continue; // first seen so: the next look decides
            }
            stuck.put(in.id(), before);
            if (!before.writesSettled().getAsBoolean()) {
                continue; // a change of this node from before the first look may still be on its way to it
            }
            Due due = new Due(task, in, Math.max(1, in.attempt()));
            Execution ex = new Execution(due, in.attempt(), o.epoch());
            stuck.remove(in.id()); // acted on: two fresh looks before it is judged again
            moved++;
            switch (in.state()) {
                case RUNNING -> {
                    dispatcher.markInFlight(due);
                    if (succeededHere.test(in.id(), in.attempt()) && runner.endAgain(ex)) {
                        endsAgain++;
                        continue;
                    }
                    lost.add(new InstanceRunner.LostAttempt(
                            ex,
                            "node " + nodeId + " does not run attempt " + in.attempt()
                                    + " though the store says it does (its end or its claim was lost: the store"
                                    + " went back in time, or a write's outcome was in doubt)",
                            null,
                            Fence.NONE));
                }
                case RETRYING -> {
                    dispatcher.markInFlight(due);
                    dispatcher.dispatch(due, InstanceState.RETRYING, in.attempt() + 1, o.epoch());
                }
                case FAILED, TIMEOUT -> {
                    dispatcher.markInFlight(due);
                    runner.retryOrDie(
                            ex,
                            in.state(),
                            "attempt " + in.attempt() + " " + in.state() + "; node " + nodeId
                                    + " had not decided what follows",
                            null,
                            0,
                            null,
                            Fence.NONE);
                }
                default -> moved--;
            }
        }
        suspects = stuck;
        if (moved == 0) {
            return;
        }
        repaired += moved;
        LOG.log(
                Level.WARNING,
                "Node {0} found {1} instance(s) of its own in flight in the store that it no longer moved on (an"
                        + " attempt it does not run, a retry not on its way): each goes on now; of them, {2} had"
                        + " succeeded here, and their ends, which the store lost, are written again",
                nodeId,
                moved,
                endsAgain);
        runner.afterLostAttempts(lost);
    }
}
