package io.ax.core.engine.work;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.terms.DecisionTerms;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The start of each attempt: claims the due instances of the partitions this node owns (SCHEDULED -&gt; RUNNING, one
 * conditional write each, fenced by the partition's epoch, many in one group of writes), keeping non-overlapping
 * tasks from overlapping across the cluster: a fire that finds the task's previous instance in flight is SKIPPED (a
 * catch-up waits for it instead). When that previous instance runs on another node (its partition moved here while
 * it ran there), its end may simply not have reached this node yet: the fire waits for news of it (see {@link
 * #awaitEnd}) rather than being skipped on a guess, and so does a fire that meets a local instance in the last
 * moments of its end. An instance this node cannot take now (its pool full) stays
 * SCHEDULED and is dispatched again after the rejection back-off.
 *
 * <p>Why it is long: it holds a non-overlapping task's slot across moves of its partition (the slots, the fires
 * waiting for an end here or elsewhere, the stale holders).
 */
public final class Dispatcher {

    private static final System.Logger LOG = EngineLog.get();

    /**
     * What the dispatch asks of the series it dispatches fires of: how late a fire may start, and what follows when
     * a fire was decided without running.
     */
    public interface Series {

        /** How late a fire may start before it is a misfire. */
        Duration misfireThreshold();

        /** A claim group was settled: fires held back behind it may be planned. */
        void groupSettled();

        /** A fire ended without running (SKIPPED): its series goes on. */
        void ended(Due due);
    }

    /** What this node's workers hold: the attempts handed to its pools. */
    public interface Attempts {

        /** Whether a worker here has the instance's final outcome and is about to free its task's slot. */
        boolean isEnding(String instanceId);

        /** Whether an attempt of the instance is handed to a pool here: waiting for a worker, or run by one. */
        boolean holds(String instanceId);
    }

    /**
     * What the dispatch asks of this node's ownership about a non-overlapping task's slot held on another node (its
     * partition came here while the instance ran there). The questions to the store are asked on the ownership's
     * thread; each answer comes back on the dispatch thread.
     */
    public interface Holders {

        /** An instance of this node's partitions runs on another live node: followed until its end is heard of. */
        void assigned(Due due, String owner);

        /** Whether an instance runs on another node and this node has not heard of its end yet. */
        boolean runsElsewhere(String instanceId);

        /** How often this node looks at what runs elsewhere. */
        Duration pollInterval();

        /**
         * Asks the store whether an instance ended: {@code ifEnded} or {@code otherwise} then runs on the dispatch
         * thread.
         */
        void checkEnded(String instanceId, Runnable ifEnded, Runnable otherwise);

        /**
         * The row of an instance in flight on any node, or null when it is not in flight; answered on the dispatch
         * thread.
         */
        void findInFlight(String instanceId, Consumer<OwnedInstance> answer);
    }

    private final String nodeId;
    private final AxClock clock;
    private final StateWriter writer;
    private final Insight insight;
    private final EngineThreads threads;
    private final ExecutionPools pools;
    private final Duration rejectionBackoff;
    /** Whether a task is paused. */
    private final Predicate<String> paused;
    /** The attempts this node's workers hold, and those whose slot is about to be freed. */
    private final Attempts attempts;
    /** Whether this node is cut off from the cluster store: it then claims no PERSISTENT attempt. */
    private final BooleanSupplier cutOff;

    private final Series series;
    /** Task name -> the instance in flight, for tasks that must not overlap (concurrent = false). */
    private final Map<String, String> inFlight = new ConcurrentHashMap<>();
    /**
     * Task name -> more instances found in flight while another held the slot (a row whose end the store lost, found
     * RUNNING beside the run that goes on here; two runs of a task in a partition taken over): the slot passes to each
     * in turn as the holder lets it go, and is free once none is left. Changed with {@link #inFlight}'s entry for the
     * task, inside its {@code compute}.
     */
    private final Map<String, Set<String>> alsoInFlight = new ConcurrentHashMap<>();
    /** Instance id -> its next attempt, put off while it is {@link #alsoInFlight}: it starts once it holds the slot. */
    private final Map<String, Runnable> putOff = new ConcurrentHashMap<>();
    /** Held by {@link #forget} and {@link #markInFlight}, which run on different threads. */
    private final Object marking = new Object();
    /** Task name -> catch-up instances waiting for the in-flight one of a non-overlapping task to end. */
    private final Map<String, Queue<Due>> waiting = new ConcurrentHashMap<>();
    /** Instances handed to dispatch outside the wheel and not yet claimed; see {@link #expect}. */
    private final Set<String> pipeline = ConcurrentHashMap.newKeySet();
    /**
     * How long an instance holds its task's slot before a fire that finds it there asks the store whether it ended:
     * longer than a run's own writes take, so that the question is asked of the rare end never heard of, not of
     * every run that is merely slower than the task's period.
     */
    private static final java.time.Duration STALE_HOLDER = java.time.Duration.ofSeconds(5);
    /** Slot holder -> since when (monotonic nanos) it holds its task's slot. */
    private final Map<String, Long> heldSince = new ConcurrentHashMap<>();

    /** Claim groups the dispatch hands to the writer before the first is settled (see {@link #claimGroupInFlight}). */
    private static final int GROUPS_AHEAD = 1;
    /** Claim groups handed to the writer and not settled yet; touched on the dispatch thread only. */
    private int groupsInFlight;
    /** Holders of a task's slot whose end the store is being asked about (see {@link #claimAll}). */
    private final Set<String> checking = ConcurrentHashMap.newKeySet();
    /**
     * Task name -> the fire of a non-overlapping series that waits for news of its previous instance's end on
     * another node (see {@link #awaitEnd}); one per task. Touched on the dispatch thread, read on others.
     */
    private final Map<String, Due> awaitingEnd = new ConcurrentHashMap<>();
    /**
     * The store is asked again this soon after it said a remote holder runs on; the wait doubles up to {@link
     * #LAST_ASK_AGAIN} (or the poll interval, when shorter).
     */
    private static final Duration FIRST_ASK_AGAIN = Duration.ofMillis(20);

    private static final Duration LAST_ASK_AGAIN = Duration.ofMillis(250);
    /** Fires that waited for a remote holder's end until they became misfires: skipped when they come back. */
    private final Set<String> waitedEnough = ConcurrentHashMap.newKeySet();
    /** Task name -> due MEMORY executions of a paused task (they live in this process only), until its resume. */
    private final Map<String, List<Due>> held = new ConcurrentHashMap<>();

    private final Holders holders;
    private final DecisionTerms terms;
    private final Claimer claimer;
    private final LimitedClaims limited;

    public Dispatcher(
            String nodeId,
            AxClock clock,
            StateWriter writer,
            Insight insight,
            EngineThreads threads,
            ExecutionPools pools,
            Duration rejectionBackoff,
            Holders holders,
            DecisionTerms terms,
            Claimer claimer,
            LimitedClaims limited,
            Predicate<String> paused,
            Attempts attempts,
            BooleanSupplier cutOff,
            Series series) {
        this.nodeId = nodeId;
        this.cutOff = cutOff;
        this.clock = clock;
        this.writer = writer;
        this.insight = insight;
        this.threads = threads;
        this.pools = pools;
        this.rejectionBackoff = rejectionBackoff;
        this.holders = holders;
        this.terms = terms;
        this.claimer = claimer;
        this.limited = limited;
        this.paused = paused;
        this.attempts = attempts;
        this.series = series;
    }

    public void dispatchFresh(Due due) {
        dispatchFresh(List.of(due));
    }

    /**
     * The claim of what fell due: instances move SCHEDULED -&gt; RUNNING to this node as one group of writes, each
     * fenced by the epoch this node owns its partition at ({@link DecisionTerms}), each handed to its pool as soon as
     * the store confirms it. A fire of a non-overlapping task that finds the previous instance in flight is SKIPPED
     * (a catch-up waits for it instead). What this node does not own is not claimed: it stays SCHEDULED in the store
     * for its partition's owner. Never waits for the store: the outcomes are settled when they come.
     *
     * @return the instances left in the store, for the caller's bookkeeping
     */
    public Set<String> dispatchFresh(List<Due> dues) {
        boolean failing = writer.isFailing();
        List<Due> mine = new ArrayList<>(dues.size());
        long[] epochs = new long[dues.size()];
        Set<String> left = Set.of();
        for (Due d : dues) {
            if (InstanceIds.isMemory(d.instanceId())) {
                // MEMORY executions live in this process only: they run here, whoever decides, and nothing fences
                // them (no other node can write them)
                epochs[mine.size()] = 0;
                mine.add(d);
                continue;
            }
            long epoch = failing ? 0 : terms.epochFor(d.partitionKey());
            if (epoch > 0) {
                epochs[mine.size()] = epoch;
                mine.add(d);
            } else {
                // it stays SCHEDULED in the store, for the sweep of the node that decides it once it can write
                if (left.isEmpty()) {
                    left = new HashSet<>();
                }
                pipeline.remove(d.instanceId());
                insight.released(d);
                left.add(d.instanceId());
            }
        }
        if (!mine.isEmpty()) {
            claimAll(mine, epochs);
        }
        return left;
    }

    /**
     * On the dispatch thread: whether as many claim groups are on their way to the store as the dispatch lets
     * run ahead of it ({@link #GROUPS_AHEAD}): what falls due meanwhile is gathered into the next group.
     */
    public boolean claimGroupInFlight() {
        return groupsInFlight >= GROUPS_AHEAD;
    }

    /**
     * An instance is on its way to {@link #dispatchFresh} outside the wheel (a run on demand, a retry after a full
     * pool): a sweep that finds it still SCHEDULED leaves it alone meanwhile.
     */
    public void expect(Due due) {
        pipeline.add(due.instanceId());
    }

    /**
     * An instance this node held as on its way to dispatch is not any more: the store has kept it SCHEDULED and
     * overdue for so long that what held it here is taken for lost, and it is dispatched again from the wheel.
     */
    public void forgetExpected(String instanceId) {
        pipeline.remove(instanceId);
    }

    /** Whether an instance is on its way to dispatch, or its claim on its way to the store. */
    public boolean expects(String instanceId) {
        return pipeline.contains(instanceId);
    }

    /** Whether an instance has held its task's slot for longer than {@code age} (or since before this node knew). */
    private boolean heldLongerThan(String holder, java.time.Duration age) {
        Long since = heldSince.get(holder);
        return since == null || clock.nanoTime() - since > age.toNanos();
    }

    /** One decision of a claim group (a claim, or a fire that does not run), settled when the store's outcome is in. */
    private record Decision(Due due, Transition transition) {

        boolean claims() {
            return transition.to() == InstanceState.RUNNING;
        }
    }

    /** @param epochs the epoch each due instance is decided at, by index; 0 for a MEMORY instance */
    private void claimAll(List<Due> dues, long[] epochs) {
        List<Decision> decisions = new ArrayList<>(dues.size());
        List<Transition> ordered = new ArrayList<>(dues.size());
        List<Due> full = new ArrayList<>();
        Instant now = writer.stamp(); // the time of the group's changes: see ChangeStamps
        for (int i = 0; i < dues.size(); i++) {
            Due due = dues.get(i);
            AxTask task = due.task();
            boolean mayAwaitEnd = !waitedEnough.remove(due.instanceId());
            boolean inMemory = InstanceIds.isMemory(due.instanceId());
            long epoch = epochs[i];
            pipeline.add(due.instanceId()); // until its outcome is settled: a sweep must not load it again
            if (paused.test(task.name())) {
                if (due.origin().isTriggerFire()) {
                    // a paused series stops here, quietly: this fire goes, and the next is planned at the resume
                    decide(decisions, ordered, due, pausedFire(due, now, epoch));
                } else if (inMemory) {
                    pipeline.remove(due.instanceId());
                    held.computeIfAbsent(task.name(), k -> new ArrayList<>()).add(due);
                } else {
                    // it waits in the store, not in memory; the resume sweeps it in again
                    pipeline.remove(due.instanceId());
                    insight.released(due);
                }
                continue;
            }
            boolean overlapAllowed = overlapAllowed(due);
            String previous = overlapAllowed ? null : inFlight.putIfAbsent(task.name(), due.instanceId());
            if (previous == null && !overlapAllowed) {
                heldSince.put(due.instanceId(), clock.nanoTime());
            }
            if (previous != null
                    && !previous.equals(due.instanceId())
                    && heldLongerThan(previous, STALE_HOLDER)
                    && checking.add(previous)) {
                // its end may never have been heard of here (it ended on a node taken for dead, say): the store is
                // asked off this thread, once per holder at a time, and the slot is freed for the next fire when
                // it says it is over
                String holder = previous;
                holders.checkEnded(
                        holder,
                        () -> {
                            checking.remove(holder);
                            heldSince.remove(holder);
                            if (letGo(task.name(), holder)) {
                                startWaiting(task.name());
                            }
                        },
                        () -> checking.remove(holder));
            }
            if (previous == null) {
                if (!pools.tryReserve(task.group())) {
                    pipeline.remove(due.instanceId());
                    release(due);
                    full.add(due);
                    continue;
                }
                // one write claims it, and the first instances of a large group start while the last are written
                Transition claim = terms.fence(epoch)
                        .assignedTo(
                                new Transition(
                                        due.instanceId(),
                                        InstanceState.SCHEDULED,
                                        InstanceState.RUNNING,
                                        due.attempt(),
                                        nodeId,
                                        now,
                                        "claimed by node " + nodeId + (epoch > 0 ? " (epoch " + epoch + ")" : ""),
                                        due.scheduledTime()),
                                nodeId);
                claimer.claiming(due.instanceId()); // held here from now on, though no runner holds it yet
                if (limited.applies(due)) {
                    // its permits and its claim are one transaction of their own, outside the group
                    limited.claim(due, claim, now, freshFollowup(due));
                } else {
                    decide(decisions, ordered, due, claim);
                }
            } else if (previous.equals(due.instanceId())) {
                pipeline.remove(due.instanceId());
                LOG.log(Level.DEBUG, "Instance {0} is already in flight; its second fire is dropped", previous);
            } else if (due.origin() == InstanceOrigin.CATCH_UP) {
                // it stays expected while it waits: a sweep that finds it SCHEDULED must not load it again and again
                Queue<Due> queue = waiting.computeIfAbsent(task.name(), k -> new ConcurrentLinkedQueue<>());
                if (queue.stream().noneMatch(d -> d.instanceId().equals(due.instanceId()))) {
                    queue.add(due); // the same catch-up again (found overdue by a sweep) waits once
                }
                if (!inFlight.containsKey(task.name())) {
                    startWaiting(task.name()); // released while we queued
                }
            } else if (due.origin() == InstanceOrigin.SERIES && mayAwaitEnd && holders.runsElsewhere(previous)) {
                awaitEnd(due, previous, decisions, ordered, now, epoch, true);
            } else if (mayAwaitEnd && attempts.isEnding(previous)) {
                // it ended here, and its worker is freeing the slot right now: skipping this fire would be a guess
                // about a race of a few microseconds, so it waits for the release (which dispatches it)
                awaitEnd(due, previous, decisions, ordered, now, epoch, false);
            } else {
                decide(
                        decisions,
                        ordered,
                        due,
                        skip(due, now, "previous instance " + previous + " has not finished", epoch));
            }
        }
        later(full);
        if (decisions.isEmpty()) {
            return;
        }
        groupsInFlight++;
        List<CompletableFuture<Boolean>> outcomes = writer.submitAllOrFail(ordered);
        // what this node claimed starts the moment the store confirms it, on the writer's thread; the rest of the
        // group is settled on the dispatch thread once every outcome is in
        Set<String> started = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<?>> gates = new ArrayList<>(outcomes);
        for (int k = 0; k < decisions.size(); k++) {
            Decision d = decisions.get(k);
            if (d.claims()) {
                // the settling waits for this stage, not the bare outcome: it must see whether the instance started
                gates.set(k, outcomes.get(k).handle((won, error) -> {
                    if (error == null && won) {
                        started.add(d.due().instanceId());
                        StateWriter.logMove(d.transition(), true);
                        claimer.run(new Claimer.Claim(
                                d.due(),
                                d.due().attempt(),
                                d.transition(),
                                now,
                                DecisionTerms.epochOf(d.transition())));
                        // settled once the runner holds it: a takeover reading the row RUNNING here finds it held
                        claimer.settled(d.due().instanceId());
                    }
                    return null;
                }));
            }
        }
        CompletableFuture.allOf(gates.toArray(CompletableFuture[]::new))
                .whenComplete((ignored, error) -> threads.onDispatchThread(() -> settle(decisions, outcomes, started)));
    }

    /** What follows a due instance's claim with permits that did not start it. */
    private LimitedClaims.Followup freshFollowup(Due due) {
        return new LimitedClaims.Followup() {
            @Override
            public void started() {
                pipeline.remove(due.instanceId()); // its runner holds it now
            }

            @Override
            public void waits() {
                // its task's slot is free meanwhile (its turn competes for it again); it stays expected, so that a
                // sweep leaves it to its turn
                release(due);
                insight.waited(due);
            }

            @Override
            public void again() {
                dispatchFresh(due);
            }

            @Override
            public void notClaimed(boolean storeFailed) {
                pipeline.remove(due.instanceId());
                if (storeFailed) {
                    release(due); // it stays SCHEDULED for the next sweep
                } else {
                    releaseUnlessAssignedElsewhere(due, null);
                }
            }
        };
    }

    /**
     * A fire of a non-overlapping series found its previous instance running on another node. That instance may
     * have ended there already, its end not heard of here yet (its owner writes it, then this node's next look at
     * its assignments reads it): skipping the fire on that guess would drop a fire that could run. So the fire waits
     * for news of the end, asking the store at once and then again after a short, growing wait, and starts when it
     * comes. It waits at most until the series' next fire comes (which is then the one that waits, and this one is
     * SKIPPED) or until it would be a misfire (then it is SKIPPED), so a long run elsewhere still skips fires, as
     * a long run on this node does. A fire that finds its previous instance ended on this node, its worker between
     * the final outcome and freeing the slot, waits the same way ({@code remote} false): the release dispatches it,
     * and no store is asked.
     */
    private void awaitEnd(
            Due due,
            String holder,
            List<Decision> decisions,
            List<Transition> ordered,
            Instant now,
            long epoch,
            boolean remote) {
        String taskName = due.task().name();
        Due displaced = awaitingEnd.put(taskName, due);
        if (displaced != null && !displaced.instanceId().equals(due.instanceId())) {
            decide(
                    decisions,
                    ordered,
                    displaced,
                    skip(displaced, now, "previous instance " + holder + " had not finished at the next fire", epoch));
        }
        if (remote) {
            askEnded(taskName, holder, due, FIRST_ASK_AGAIN);
        } else if (!holder.equals(inFlight.get(taskName))) {
            startWaiting(taskName); // the local end freed the slot before this fire was put to wait
        }
        Duration untilMisfire = Duration.between(now, due.scheduledTime().plus(series.misfireThreshold()));
        threads.after(untilMisfire.isNegative() ? Duration.ZERO : untilMisfire, () -> {
            if (awaitingEnd.remove(taskName, due)) {
                waitedEnough.add(due.instanceId());
                dispatchFresh(due);
            }
        });
    }

    /** Asks the store whether a remote holder ended, for as long as {@code waiter} waits for it. */
    private void askEnded(String taskName, String holder, Due waiter, Duration again) {
        holders.checkEnded(
                holder,
                () -> {
                    heldSince.remove(holder);
                    if (letGo(taskName, holder)) {
                        startWaiting(taskName);
                    }
                },
                () -> {
                    if (awaitingEnd.get(taskName) == waiter) {
                        Duration longest = holders.pollInterval().compareTo(LAST_ASK_AGAIN) < 0
                                ? holders.pollInterval()
                                : LAST_ASK_AGAIN;
                        Duration next = again.multipliedBy(2).compareTo(longest) > 0 ? longest : again.multipliedBy(2);
                        threads.after(again, () -> {
                            if (awaitingEnd.get(taskName) == waiter) {
                                askEnded(taskName, holder, waiter, next);
                            }
                        });
                    }
                });
    }

    private void decide(List<Decision> decisions, List<Transition> ordered, Due due, Transition t) {
        ordered.add(t);
        decisions.add(new Decision(due, t));
    }

    /** On the dispatch thread: what the store made of a claim group. */
    private void settle(List<Decision> decisions, List<CompletableFuture<Boolean>> outcomes, Set<String> started) {
        try {
            settleGroup(decisions, outcomes, started);
        } finally {
            groupsInFlight--;
            series.groupSettled();
        }
    }

    private void settleGroup(List<Decision> decisions, List<CompletableFuture<Boolean>> outcomes, Set<String> started) {
        List<FencedOutException> fenced = new ArrayList<>(0);
        for (int k = 0; k < decisions.size(); k++) {
            Decision d = decisions.get(k);
            Due due = d.due();
            CompletableFuture<Boolean> outcome = outcomes.get(k);
            pipeline.remove(due.instanceId());
            if (started.contains(due.instanceId())) {
                continue; // claimed and running
            }
            Throwable error = StateWriter.failure(outcome);
            boolean applied = error == null && outcome.join();
            if (error instanceof FencedOutException e) {
                fenced.add(e);
            } else if (error != null) {
                LOG.log(
                        Level.WARNING,
                        "Instance {0} could not be {1}; it stays SCHEDULED for the next sweep: {2}",
                        due.instanceId(),
                        d.claims() ? "claimed" : "skipped",
                        error.toString());
            } else {
                StateWriter.logMove(d.transition(), applied);
            }
            if (!d.claims()) {
                if (applied && d.transition().to() == InstanceState.SKIPPED) {
                    skipped(due, d.transition());
                }
                continue;
            }
            claimer.settled(due.instanceId());
            pools.unreserve(due.task().group());
            // not claimed: the slot is free again, unless another owner's claim went first
            if (!applied) {
                releaseUnlessAssignedElsewhere(due, error);
            }
        }
        fenced.forEach(terms::fencedOut);
    }

    /**
     * A claim of {@code due} was not applied: the instance was no longer SCHEDULED at its due time. A user may have
     * cancelled or rescheduled it; or a deposed owner's claim, fenced when its statement began, committed first (this
     * node's take of the partition read the instance SCHEDULED, and the row lock then made this write wait for that
     * one). In that last case it runs on the deposed owner, so a non-overlapping task's slot stays with it, and this
     * node follows it to its end; otherwise the slot is free again.
     */
    private void releaseUnlessAssignedElsewhere(Due due, Throwable error) {
        if (error != null || !due.instanceId().equals(inFlight.get(due.task().name()))) {
            release(due); // a failed write left it SCHEDULED; and a slot it does not hold needs no read
            return;
        }
        holders.findInFlight(due.instanceId(), row -> {
            if (row == null || terms.epochFor(due.partitionKey()) == 0) { // not in flight, or not decided here now
                release(due);
                return;
            }
            if (row.owner().equals(nodeId) && !runsHere(due.instanceId())) {
                // this node's own earlier attempt, which ended here: its worker freed the slot, and its end waits in
                // the writer, so the store still says RUNNING. Nothing here will free the slot again
                release(due);
                return;
            }
            insight.released(due);
            if (!row.owner().equals(nodeId)) {
                holders.assigned(new Due(due.task(), row.instance()), row.owner());
            }
            // an earlier owner's claim, or this node's own whose write was in doubt after a cut
            LOG.log(
                    Level.DEBUG,
                    "Instance {0} of task ''{1}'' was found in flight on node {2}; the task''s next instance waits"
                            + " for its end",
                    due.instanceId(),
                    due.task().name(),
                    row.owner());
        });
    }

    /** Whether an attempt of the instance is claimed or run here, and not about to free its slot. */
    private boolean runsHere(String instanceId) {
        return claimer.isClaiming(instanceId) || (attempts.holds(instanceId) && !attempts.isEnding(instanceId));
    }

    private void skipped(Due due, Transition t) {
        insight.skipped(due);
        LOG.log(Level.INFO, "Task ''{0}'' instance {1} SKIPPED: {2}", due.task().name(), due.instanceId(), t.reason());
        if (due.series() && due.task().trigger().measuresFromCompletion()) {
            series.ended(due);
        }
    }

    /** The fire of a paused series: cancelled, and the series waits for the resume. */
    private Transition pausedFire(Due due, Instant now, long epoch) {
        return terms.fence(epoch)
                .assignedTo(
                        new Transition(
                                due.instanceId(),
                                InstanceState.SCHEDULED,
                                InstanceState.CANCELLED,
                                0,
                                nodeId,
                                now,
                                "task '" + due.task().name() + "' is paused; its series goes on when it is resumed",
                                due.scheduledTime()),
                        null);
    }

    private Transition skip(Due due, Instant now, String reason, long epoch) {
        return terms.fence(epoch)
                .assignedTo(
                        new Transition(
                                due.instanceId(),
                                InstanceState.SCHEDULED,
                                InstanceState.SKIPPED,
                                0,
                                nodeId,
                                now,
                                reason,
                                due.scheduledTime()),
                        null);
    }

    /** Instances this node should run but found its pool full: dispatched again after the back-off, as one group. */
    private void later(List<Due> full) {
        if (full.isEmpty()) {
            return;
        }
        full.forEach(insight::rejected);
        LOG.log(
                Level.WARNING,
                "{0} instance(s) wait: pool ''{1}'' is full; dispatching again in {2}",
                full.size(),
                full.get(0).task().group(),
                rejectionBackoff);
        full.forEach(this::expect);
        threads.after(rejectionBackoff, () -> dispatchFresh(full));
    }

    /**
     * The next attempt of an instance this node takes over from a node that is gone ({@code takenFrom}, null for an
     * instance no node owned), as {@code fence}'s decision: {@code from} -&gt; RUNNING in one write, then its
     * pool; its fencing token carries that fence's epoch. A full pool retries after the back-off.
     */
    public void dispatch(Due due, InstanceState from, int attempt, String takenFrom, Fence fence) {
        dispatch(due, from, attempt, takenFrom, fence, fence.epoch());
    }

    /**
     * The next attempt of an instance this node owns: {@code from} -&gt; RUNNING in one write, then its pool. Its
     * fencing token carries {@code epoch}, the epoch of the instance's last claim or takeover.
     */
    public void dispatch(Due due, InstanceState from, int attempt, long epoch) {
        dispatch(due, from, attempt, null, Fence.NONE, epoch);
    }

    private void dispatch(Due due, InstanceState from, int attempt, String takenFrom, Fence fence, long epoch) {
        // the next attempt holds its task's slot, or waits for it: the slot may have passed on meanwhile. A node cut
        // off while the attempt ran lost its partitions and their slots; taking them back, it found the attempt's row
        // its own and over (the record of its interruption waited in the writer), so the next fire of the series took
        // the slot, and this retry, once recorded, would have run beside it
        markInFlight(due);
        if (putOffForSlot(due, () -> dispatch(due, from, attempt, takenFrom, fence, epoch))) {
            return;
        }
        if (cutOff.getAsBoolean() && !InstanceIds.isMemory(due.instanceId())) {
            // cut off, this node's work may be taken over: a claim it would not start reads as a running attempt to
            // the takeover, which records it FAILED and uses up a retry that never ran. It asks again after the
            // back-off; back in touch, its claim applies only if it still owns the instance
            threads.after(rejectionBackoff, () -> dispatch(due, from, attempt, takenFrom, fence, epoch));
            return;
        }
        if (!pools.tryReserve(due.task().group())) {
            insight.rejected(due);
            threads.after(rejectionBackoff, () -> dispatch(due, from, attempt, takenFrom, fence, epoch));
            return;
        }
        Transition claim = writer.owned(
                due.instanceId(),
                from,
                InstanceState.RUNNING,
                attempt,
                "attempt " + attempt + " on node " + nodeId,
                takenFrom,
                fence);
        if (!limited.applies(due)) {
            claimer.claimAndRun(List.of(new Claimer.Claim(due, attempt, claim, null, epoch)));
            return;
        }
        claimer.claiming(due.instanceId());
        limited.claim(due, claim, null, new LimitedClaims.Followup() {
            @Override
            public void started() {}

            @Override
            public void waits() {
                insight.waited(due); // it keeps its task's slot: it is that task's instance in flight
            }

            @Override
            public void again() {
                dispatch(due, from, attempt, takenFrom, fence, epoch);
            }

            @Override
            public void notClaimed(boolean storeFailed) {
                insight.released(due);
                if (storeFailed && !fence.any()) {
                    // its row stays RETRYING (or SCHEDULED) under this node, and no sweep or takeover looks at a
                    // live node's retry: it asks again after the back-off, until its claim applies or loses
                    threads.after(rejectionBackoff, () -> dispatch(due, from, attempt, takenFrom, fence, epoch));
                }
            }
        });
    }

    /**
     * Whether an instance may run beside another of its task: a concurrent task's, a delayed task's, and a workflow
     * step, which belongs to its run and waits for no other run's step (or its run would stop there).
     */
    private static boolean overlapAllowed(Due due) {
        return due.task().concurrent()
                || due.origin() == InstanceOrigin.DELAYED
                || due.origin() == InstanceOrigin.WORKFLOW;
    }

    /** Whether a fire of the task waits for its previous instance's end (for tests). */
    public boolean awaitsEnd(String taskName) {
        return awaitingEnd.containsKey(taskName);
    }

    /** The instance reached a final state: let the next fire of a non-overlapping task start. */
    public void release(Due due) {
        insight.released(due);
        heldSince.remove(due.instanceId());
        if (letGo(due.task().name(), due.instanceId())) {
            startWaiting(due.task().name());
        }
    }

    /**
     * {@code holder} no longer holds the task's slot: when it was the holder, the slot passes to an instance also in
     * flight, if one is left, and that one's next attempt, if it was put off for the slot, starts now.
     *
     * @return whether the slot is free now
     */
    private boolean letGo(String taskName, String holder) {
        boolean[] freed = {false};
        String[] passedTo = {null};
        inFlight.computeIfPresent(taskName, (name, current) -> {
            Set<String> also = alsoInFlight.get(name);
            if (also != null) {
                also.remove(holder);
            }
            String next = current;
            if (current.equals(holder)) {
                next = also == null ? null : also.stream().findFirst().orElse(null);
                if (next != null) {
                    also.remove(next);
                }
                freed[0] = next == null;
                passedTo[0] = next;
            }
            if (also != null && also.isEmpty()) {
                alsoInFlight.remove(name);
            }
            return next;
        });
        putOff.remove(holder);
        Runnable attempt = passedTo[0] == null ? null : putOff.remove(passedTo[0]);
        if (attempt != null) {
            threads.onDispatchThread(attempt);
        }
        return freed[0];
    }

    /**
     * Puts off the next attempt of an instance found in flight while another instance of its non-overlapping task
     * holds the slot (two attempts of one task taken over together): it starts when the slot passes to it.
     *
     * @return whether it was put off
     */
    private boolean putOffForSlot(Due due, Runnable attempt) {
        if (overlapAllowed(due)) {
            return false;
        }
        String id = due.instanceId();
        boolean[] waits = {false};
        inFlight.computeIfPresent(due.task().name(), (name, holder) -> {
            Set<String> also = alsoInFlight.get(name);
            if (!holder.equals(id) && also != null && also.contains(id)) {
                putOff.put(id, attempt);
                waits[0] = true;
            }
            return holder;
        });
        return waits[0];
    }

    /**
     * Dispatches the fire or the next catch-up that waits for the task's previous instance to end (it competes for
     * the in-flight slot again).
     */
    private void startWaiting(String taskName) {
        Due awaiting = awaitingEnd.remove(taskName);
        if (awaiting != null) {
            threads.onDispatchThread(() -> dispatchFresh(awaiting));
            return;
        }
        Queue<Due> queue = waiting.get(taskName);
        Due next = queue == null ? null : queue.poll();
        if (next != null) {
            threads.onDispatchThread(() -> dispatchFresh(next));
        }
    }

    /**
     * On the dispatch thread: a task was resumed; its MEMORY executions that fell due meanwhile are dispatched now
     * (the owner's sweep takes in the PERSISTENT ones, which waited in the store).
     */
    public void resume(String taskName) {
        List<Due> dues = held.remove(taskName);
        if (dues != null) {
            dispatchFresh(dues);
        }
    }

    /**
     * Whether a catch-up of the task waits for its previous instance to end: a series that is late again then plans
     * no second catch-up, only its next fire (FIRE_ONCE means one for the fires missed together, not one per late
     * fire).
     */
    public boolean catchUpWaits(String taskName) {
        Queue<Due> queue = waiting.get(taskName);
        return queue != null && !queue.isEmpty();
    }

    /**
     * On the dispatch thread: this node no longer decides the tasks {@code lost} names (their partition moved): the
     * slots it held for them and the fires waiting for those slots go; the new owner reads the store. MEMORY
     * executions waiting for a paused task stay: they live in this process only, and run at the resume.
     */
    public void forget(Predicate<String> lost) {
        // it runs after whatever the dispatch thread had to do: the partition may be this node's again by now, its
        // takeover having marked the slots of its attempts in flight (from ax-leader). Those stay: the lock keeps a
        // marking from falling between the test and the removal
        Predicate<String> gone = taskName -> lost.test(taskName) && terms.epochFor(taskName) == 0;
        synchronized (marking) {
            inFlight.entrySet().removeIf(e -> {
                if (gone.test(e.getKey())) {
                    heldSince.remove(e.getValue());
                    checking.remove(e.getValue());
                    Set<String> also = alsoInFlight.remove(e.getKey());
                    if (also != null) {
                        also.forEach(heldSince::remove);
                        also.forEach(putOff::remove); // not decided here now: a retry's write would be refused
                    }
                    return true;
                }
                return false;
            });
        }
        waiting.entrySet().removeIf(e -> {
            if (gone.test(e.getKey())) {
                e.getValue().forEach(d -> pipeline.remove(d.instanceId()));
                return true;
            }
            return false;
        });
        awaitingEnd.entrySet().removeIf(e -> {
            if (gone.test(e.getKey())) {
                pipeline.remove(e.getValue().instanceId());
                return true;
            }
            return false;
        });
    }

    /**
     * Marks an instance recovered in flight, so that a non-overlapping task does not start another meanwhile. When
     * another instance holds the task's slot (it runs here, say, and the store also says an older one runs), the slot
     * stays taken until both have ended: the mark does not take it from the holder, whose end would free it for the
     * next fire while the marked one still ran.
     */
    public void markInFlight(Due due) {
        // a delayed task or a workflow step holds no slot: no fire waits for it, and the end of one that runs on
        // another node is not followed, so a mark would hold the slot for good and every retry behind it would wait
        if (!overlapAllowed(due)) {
            String id = due.instanceId();
            synchronized (marking) { // see forget
                inFlight.compute(due.task().name(), (name, holder) -> {
                    if (holder == null || holder.equals(id)) {
                        return id;
                    }
                    alsoInFlight
                            .computeIfAbsent(name, k -> ConcurrentHashMap.newKeySet())
                            .add(id);
                    return holder;
                });
                heldSince.put(id, clock.nanoTime());
            }
        }
    }
}
