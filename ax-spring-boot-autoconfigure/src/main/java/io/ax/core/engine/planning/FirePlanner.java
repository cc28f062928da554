package io.ax.core.engine.planning;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.terms.DecisionTerms;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides fire times and puts them into the wheel: the first fire of a series, the fire after each one, what a
 * misfire policy makes of missed times; writes each group of fires in one round trip and keeps fires of the same
 * trigger and time in one wheel entry. When entries fall due, it gathers what fell due together and hands it to the
 * {@link Dispatcher} as one group.
 *
 * <p>Why it is long: every trigger decision is here (first and next fires, misfires and their policies, catch-ups,
 * the batches of one trigger in the wheel), and they share the queued fires and the dispatch thread.
 */
public final class FirePlanner implements Reconciliation.Planner, Dispatcher.Series {

    private static final System.Logger LOG = EngineLog.get();

    /** The tasks as the planner sees them: registered, paused, and whether the engine runs at all. */
    public interface Tasks {

        /** The task registered under that name now; null when none is. */
        AxTask registered(String name);

        boolean paused(String name);

        boolean engineRuns();
    }

    /**
     * Who plans a fixed-delay series' next fire once an instance ended: the one that decides the series now (the
     * owner of its partition), on its own thread.
     */
    public interface FixedDelays {

        void continueFixedDelay(Due due, Instant completed);
    }

    /**
     * Where due fires go on, both built after the planner: the dispatch, and the prefetch window that keeps the
     * wheel filled from the store.
     */
    public interface Downstream {

        /** Whether a catch-up of the task waits for its previous instance to end (see the dispatcher's). */
        boolean catchUpWaits(String taskName);

        /** Whether the dispatch still has a claim group on its way (what falls due then waits for it). */
        boolean claimGroupInFlight();

        /** Dispatches fires that fell due; the instances left in the store. */
        Set<String> dispatchFresh(List<Due> dues);

        /** Whether the prefetch window reaches this time (a fire before it is loaded by the window, not here). */
        boolean covers(Instant time);

        /** The wheel gave up fires: how many are queued in it now. */
        void drained(int queued);
    }

    private final InstanceStore store;
    private final AxClock clock;
    private final String nodeId;
    private final Duration misfireThreshold;
    private final int maxCatchUp;
    private final EngineThreads threads;
    private final ClockGuard clockGuard;
    /** The writer of starts: while it fails, what falls due is not held back behind a group on its way. */
    private final StateWriter writer;
    /** The writer of new fires, planned ahead. */
    private final StateWriter fireWriter;

    private final Workflows workflows;
    private final FixedDelays fixedDelays;
    private final DecisionTerms terms;
    private final Tasks tasks;
    private final Downstream downstream;
    private final TriggerGroups groups = new TriggerGroups();
    private final MisfireLog misfires;
    /** Instances that fell due and wait for the next drain; touched only on the dispatch thread. */
    private final List<Due> ready = new ArrayList<>();
    /**
     * The SCHEDULED instances in the wheel, by id, with their batch: a second enqueue of one (writer and prefetch
     * both) is dropped, and a cancelled or rescheduled one leaves its batch.
     */
    private final Map<String, TriggerGroups.Batch> queued = new ConcurrentHashMap<>();

    public FirePlanner(
            InstanceStore store,
            AxClock clock,
            String nodeId,
            Duration misfireThreshold,
            int maxCatchUp,
            EngineThreads threads,
            ClockGuard clockGuard,
            StateWriter writer,
            StateWriter fireWriter,
            Workflows workflows,
            FixedDelays fixedDelays,
            DecisionTerms terms,
            Tasks tasks,
            Downstream downstream) {
        this.store = store;
        this.clock = clock;
        this.nodeId = nodeId;
        this.misfireThreshold = misfireThreshold;
        this.maxCatchUp = maxCatchUp;
        this.threads = threads;
        this.clockGuard = clockGuard;
        this.writer = writer;
        this.fireWriter = fireWriter;
        this.workflows = workflows;
        this.fixedDelays = fixedDelays;
        this.terms = terms;
        this.tasks = tasks;
        this.downstream = downstream;
        this.misfires = new MisfireLog(clock, threads::after);
    }

    /** A fire to write: series fires move the task's next fire time; others (catch-ups, on demand) do not. */
    public record Pending(AxTask task, Instant time, InstanceOrigin origin, String reason, byte[] payload) {

        Pending(AxTask task, Instant time, InstanceOrigin origin, String reason) {
            this(task, time, origin, reason, null);
        }
    }

    static Pending seriesFire(AxTask task, Instant time) {
        return new Pending(
                task,
                time,
                InstanceOrigin.SERIES,
                "fire time of " + task.trigger().describe());
    }

    /**
     * Plans the first fire of a task's series from now; none while it is paused (its resume plans it). A first fire
     * pinned to a time that passed more than the misfire threshold ago is a missed fire of the series: the task's
     * misfire policy decides whether it still runs, with its own fire time.
     */
    @Override
    public void planFirst(AxTask task, List<Pending> out) {
        if (tasks.paused(task.name())) {
            return;
        }
        Instant now = clock.instant();
        Optional<Instant> first = task.trigger().firstFireTime(now);
        if (first.isEmpty()) {
            return;
        }
        if (isMisfire(first.get(), now)) {
            planMissed(task, first.get(), now, true, out);
        } else {
            out.add(seriesFire(task, first.get()));
        }
    }

    /**
     * Plans the fire that follows {@code previous}; when that time has already passed by more than the misfire
     * threshold, plans the catch-ups of the task's misfire policy and resumes the series from the present.
     */
    @Override
    public void planNext(AxTask task, Instant previous, Instant completed, List<Pending> out) {
        if (!tasks.engineRuns() || tasks.registered(task.name()) != task || tasks.paused(task.name())) {
            return; // a paused series plans nothing: its resume goes on from then
        }
        // planning is for whoever decides the task's fires: another node's next fire is planned there, when it
        // learns of the end
        if (terms.epochFor(task.name()) == 0) {
            return;
        }
        Optional<Instant> next = task.trigger().nextFireTime(previous, completed);
        if (next.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        if (isMisfire(next.get(), now)) {
            // a catch-up already waiting for this task stands for this missed time too: the series just goes on
            planMissed(task, next.get(), now, !downstream.catchUpWaits(task.name()), out);
        } else {
            out.add(seriesFire(task, next.get()));
        }
    }

    /** How late a fire may start before it is a misfire. */
    @Override
    public Duration misfireThreshold() {
        return misfireThreshold;
    }

    public boolean isMisfire(Instant fireTime, Instant now) {
        return fireTime.isBefore(now.minus(misfireThreshold));
    }

    /**
     * Plans what the task's misfire policy makes of the missed fire times from {@code firstMissed} on, then the
     * next regular fire after now.
     *
     * @param includeFirst whether {@code firstMissed} still needs an instance (false when one exists already)
     */
    public void planMissed(AxTask task, Instant firstMissed, Instant now, boolean includeFirst, List<Pending> out) {
        MisfirePolicy policy = task.misfire();
        int caughtUp = 0;
        if (policy != MisfirePolicy.SKIP) {
            Instant t = firstMissed;
            int limit = policy == MisfirePolicy.FIRE_ONCE ? 1 : maxCatchUp;
            while (t != null && t.isBefore(now) && caughtUp < limit) {
                if (caughtUp > 0 || includeFirst) {
                    out.add(new Pending(
                            task,
                            t,
                            InstanceOrigin.CATCH_UP,
                            "catch-up (" + policy + ") for the missed fire time " + t));
                }
                caughtUp++;
                t = task.trigger().nextFireTime(t, now).orElse(null);
            }
        }
        Optional<Instant> resumed = task.trigger().resumeAfter(firstMissed, now);
        misfires.missed(
                task.name(),
                "Task '" + task.name() + "' missed fire times from " + firstMissed + "; misfire policy " + policy + ": "
                        + caughtUp + " catch-up(s), next fire "
                        + resumed.map(Instant::toString).orElse("never"));
        resumed.ifPresent(t -> out.add(seriesFire(task, t)));
    }

    /**
     * Writes the trigger decisions this node may take (one round trip per fence, each fire fenced by the epoch its
     * task's fires are decided at here) and waits for them, then puts each written one due inside the prefetch window
     * into the wheel. Leaves out the fires of tasks this node does not decide for. For callers that may wait for the
     * store (a registration, a takeover); the dispatch path uses {@link #planAhead}.
     */
    public void scheduleFires(List<Pending> pending) {
        for (List<Decided> group : decidable(pending)) {
            scheduleDecided(group);
        }
    }

    /**
     * Writes the fires {@code term} decides (each fenced as its task's row is in that term), leaving out the others,
     * and waits for them; then puts each written one due inside the prefetch window into the wheel.
     */
    @Override
    public void scheduleFires(List<Pending> pending, Term term) {
        decided(pending, term).forEach(this::scheduleDecided);
    }

    private void scheduleDecided(List<Decided> decided) {
        List<Decided> left = decided;
        while (!left.isEmpty()) {
            try {
                enqueueCovered(writeDecided(left));
                return;
            } catch (io.ax.core.cluster.FencedOutException e) {
                terms.fencedOut(e);
                left = outside(e, left);
            }
        }
    }

    /**
     * The fires of {@code decided} outside the partition a refusal names, to be written again with the fences they
     * carry: a group spans many partitions, and one that moved rolls the whole group back, the fires of the partitions
     * still owned here with it (their series would stop until the reconciliation found them, seconds later). Empty
     * when the refusal is the leader's or a row's without a partition (the whole group is out), or names no partition
     * of the group (the same refusal would follow). Each round leaves a partition out: a group is written at most once
     * per partition it spans.
     */
    private List<Decided> outside(io.ax.core.cluster.FencedOutException refused, List<Decided> decided) {
        if (refused.partition() < 0) {
            return List.of();
        }
        List<Decided> rest = new ArrayList<>(decided.size());
        for (Decided d : decided) {
            if (terms.partitionOf(d.pending().task().name()) != refused.partition()) {
                rest.add(d);
            }
        }
        return rest.size() == decided.size() ? List.of() : rest;
    }

    /** A fire this node decides, with the fence of its decision. */
    private record Decided(Pending pending, Fence fence) {}

    /**
     * The fires this node may decide now, each with the epoch it decides it at, by the fence of the write that
     * carries them: one group under the leader (its epoch), one under partitions (each fire carries its own fence).
     */
    private java.util.Collection<List<Decided>> decidable(List<Pending> pending) {
        return decided(pending, terms.now());
    }

    /**
     * The fires {@code term} decides, each with its fence, by the leader fence of the write that carries them; the
     * others are left out.
     */
    private static java.util.Collection<List<Decided>> decided(List<Pending> pending, Term term) {
        Map<Long, List<Decided>> byFence = new LinkedHashMap<>();
        for (Pending p : pending) {
            Fence fence = term.fenceFor(p.task().name());
            if (fence.any()) {
                byFence.computeIfAbsent(fence.leader(), k -> new ArrayList<>()).add(new Decided(p, fence));
            }
        }
        return byFence.values();
    }

    /**
     * Like {@link #scheduleFires(List)}, without waiting: the writer writes the fires in its turn (retrying while the
     * store is away) and what it wrote goes into the wheel then. Should it fail for good, the leader's
     * reconciliation gives the series its next fire again.
     */
    void planAhead(List<Pending> pending) {
        for (List<Decided> group : decidable(pending)) {
            // MEMORY series are written at once, PERSISTENT ones queue for the database: the first go on while it
            // is away
            List<Decided> memory = new ArrayList<>();
            List<Decided> durable = new ArrayList<>();
            for (Decided d : group) {
                (d.pending().task().durability() == io.ax.core.Durability.MEMORY ? memory : durable).add(d);
            }
            planAheadDecided(memory);
            planAheadDecided(durable);
        }
    }

    private void planAheadDecided(List<Decided> decided) {
        if (decided.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<Pending> normalized = normalize(pendingOf(decided));
        List<NewFire> fires = newFires(normalized, decided, now);
        CompletableFuture<boolean[]> outcome;
        try {
            outcome = fireWriter.schedule(fires, decided.get(0).fence().leader());
        } catch (io.ax.core.AxException stopped) {
            return; // the engine stops: the next leader plans what is missing
        }
        outcome.whenComplete((written, error) -> {
            if (error instanceof io.ax.core.cluster.FencedOutException e) {
                terms.fencedOut(e);
                planAheadDecided(outside(e, decided)); // the fires of the partitions still owned here
            } else if (error != null) {
                LOG.log(
                        Level.WARNING,
                        "AX could not write the next fire(s) of {0}; the reconciliation of their owner plans them again:"
                                + " {1}",
                        normalized.stream().map(p -> p.task().name()).distinct().toList(),
                        error.toString());
            } else {
                enqueueCovered(dues(normalized, fires, written));
            }
        });
    }

    private void enqueueCovered(List<Due> written) {
        for (Due due : written) {
            if (downstream.covers(due.scheduledTime())) {
                enqueue(due);
            }
        }
    }

    /**
     * Writes fires no fence guards (an operator's run on demand: an insert the unique keys guard, whoever decides the
     * task's fires) in one round trip; returns those written (duplicates of existing instances are left out).
     */
    public List<Due> write(List<Pending> pending) {
        return writeDecided(
                pending.stream().map(p -> new Decided(p, Fence.NONE)).toList());
    }

    /** Writes decided fires, all under one leader fence, in one round trip; returns those written. */
    private List<Due> writeDecided(List<Decided> decided) {
        if (decided.isEmpty()) {
            return List.of();
        }
        List<Pending> normalized = normalize(pendingOf(decided));
        List<NewFire> fires = newFires(normalized, decided, clock.instant());
        return dues(
                normalized, fires, store.schedule(fires, decided.get(0).fence().leader()));
    }

    private static List<Pending> pendingOf(List<Decided> decided) {
        return decided.stream().map(Decided::pending).toList();
    }

    /** Stores keep microseconds: the time in memory must be the time in the store. */
    private static List<Pending> normalize(List<Pending> pending) {
        List<Pending> normalized = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            normalized.add(new Pending(
                    p.task(), p.time().truncatedTo(ChronoUnit.MICROS), p.origin(), p.reason(), p.payload()));
        }
        return normalized;
    }

    /** The fires of {@code normalized}, each fenced as its decision in {@code decided} (same order). */
    private List<NewFire> newFires(List<Pending> normalized, List<Decided> decided, Instant now) {
        List<NewFire> fires = new ArrayList<>(normalized.size());
        for (int n = 0; n < normalized.size(); n++) {
            Pending q = normalized.get(n);
            TaskInstance instance = new TaskInstance(
                    InstanceIds.next(q.task().durability(), now),
                    q.task().name(),
                    q.time(),
                    InstanceState.SCHEDULED,
                    0,
                    nodeId,
                    now,
                    q.origin(),
                    q.origin().isTriggerFire() ? TaskInstance.fireKey(q.time()) : null);
            // a workflow's root starts a run: its id is the run id, said in the audit where the run begins
            String reason = workflows.graph().isRoot(q.task().name())
                    ? q.reason() + "; starts workflow run " + instance.id()
                    : q.reason();
            fires.add(decided.get(n).fence().on(new NewFire(instance, reason, q.payload())));
        }
        return fires;
    }

    private static List<Due> dues(List<Pending> normalized, List<NewFire> fires, boolean[] written) {
        List<Due> dues = new ArrayList<>(written.length);
        for (int i = 0; i < written.length; i++) {
            Pending p = normalized.get(i);
            if (written[i]) {
                dues.add(new Due(p.task(), fires.get(i).instance().id(), p.time(), p.origin()));
            } else {
                LOG.log(
                        Level.DEBUG,
                        "Task ''{0}'' already has an instance for {1}",
                        p.task().name(),
                        p.time());
            }
        }
        return dues;
    }

    /**
     * Puts a SCHEDULED instance into the wheel, sharing the entry of other fires of the same trigger and time; false
     * when it is there already.
     */
    public boolean enqueue(Due due) {
        // the instance is marked as in the wheel before it joins a batch: its batch may fall due (an overdue one at
        // once, on another thread) and its dispatch unmark it before this thread goes on. Marked after, it stayed
        // marked for good, and a sweep that found it left in the store (by a write that failed) never took it again
        if (queued.putIfAbsent(due.instanceId(), TriggerGroups.JOINING) != null) {
            return false; // in the wheel already, or being put there by another thread
        }
        TriggerGroups.Added added = groups.add(due.task().trigger(), due.scheduledTime(), due);
        // fails when its batch was dispatched meanwhile (which unmarked it) or it was dequeued: nothing to record
        queued.replace(due.instanceId(), TriggerGroups.JOINING, added.batch());
        if (added.opened()) {
            TriggerGroups.Batch batch = added.batch();
            batch.timer =
                    threads.at(clockGuard.deadlineOf(due.scheduledTime()), () -> fire(batch, due.scheduledTime()));
        }
        return true;
    }

    /**
     * Takes a SCHEDULED instance that was cancelled or moved to another time out of the wheel; its batch's wheel
     * entry goes too when nothing else is left in it. Does nothing once its batch fell due: the instance's state
     * then decides (its dispatch finds it no longer SCHEDULED, or no longer due at that time).
     */
    public void dequeue(String instanceId) {
        TriggerGroups.Batch batch = queued.remove(instanceId);
        if (batch != null && batch != TriggerGroups.JOINING && groups.remove(batch, instanceId)) {
            threads.cancelTimer(batch.timer);
        }
    }

    /**
     * On the dispatch thread: a batch fell due. Right after a clock jump, or while the wall clock says its time is
     * still ahead, it waits (see {@link io.ax.core.clock.ClockJumpDetector#holdUntil}): nothing fires early and
     * nothing is dropped.
     */
    private void fire(TriggerGroups.Batch batch, Instant fireTime) {
        clockGuard.check(); // a jump since the clock watch last looked pauses this decision too
        OptionalLong hold = clockGuard.holdUntil(fireTime);
        if (hold.isPresent()) {
            threads.at(hold.getAsLong(), () -> fire(batch, fireTime));
            return;
        }
        // the wheel runs on the monotonic clock, set from the wall clock when the entry went in: over a long wait the
        // two drift apart by a few milliseconds (an NTP slew), and the wall clock has the last word
        if (fireTime.isAfter(clock.instant())) {
            threads.at(clockGuard.deadlineOf(fireTime), () -> fire(batch, fireTime));
            return;
        }
        add(groups.take(batch));
    }

    /** On the dispatch thread: a MEMORY execution fell due. */
    public void becameDue(Due due) {
        add(List.of(due));
    }

    /**
     * This node no longer decides the rows of the partition keys {@code lost} accepts: their instances leave the
     * wheel, and what of them fell due and waits for the dispatch goes (on the dispatch thread). The owner of their
     * partition loads them from the store. A MEMORY execution that is no trigger's fire stays: it lives in this
     * process only, and runs here whoever decides.
     */
    public void forget(java.util.function.Predicate<String> lost) {
        java.util.function.Predicate<Due> theirs = due -> lost.test(due.partitionKey())
                && (!InstanceIds.isMemory(due.instanceId()) || due.origin().isTriggerFire());
        groups.instancesOf(theirs).forEach(this::dequeue);
        threads.onDispatchThread(() -> ready.removeIf(theirs));
    }

    /** How many SCHEDULED instances wait in the wheel. */
    public int queued() {
        return queued.size();
    }

    private void add(List<Due> dues) {
        boolean drainPending = !ready.isEmpty();
        ready.addAll(dues);
        if (!drainPending) {
            // runs after the fires already queued on the dispatch thread: all that fell due together goes as one group
            threads.onDispatchThread(this::drainReady);
        }
    }

    /**
     * On the dispatch thread: dispatches what fell due as one group, then writes the series' next fires. While the
     * last group is on its way to the store, what falls due waits here and goes as one group when it is settled
     * ({@link #groupSettled}): the store then paces the dispatch, as when the dispatch thread waited for it, without
     * that thread waiting. Without that pacing, a load the store cannot write within a period dispatches the next
     * fire of a non-overlapping task before its previous one has even started, and skips it.
     */
    private void drainReady() {
        if (ready.isEmpty()) {
            return;
        }
        if (downstream.claimGroupInFlight() && !writer.isFailing()) {
            return;
        }
        List<Due> dues = List.copyOf(ready);
        ready.clear();
        Set<String> left = Set.of();
        try {
            left = downstream.dispatchFresh(dues);
        } finally {
            // the dispatcher expects them now, until their outcome is in: a load that reads them again leaves them
            for (Due due : dues) {
                queued.remove(due.instanceId());
            }
            downstream.drained(queued.size());
        }
        List<Pending> next = new ArrayList<>();
        for (Due due : dues) {
            // a fire left in the store (no leader, or the database away) plans nothing yet: it is dispatched again
            // once the store takes writes, and plans its successor then. Planning on through an outage would leave
            // one stale fire per period behind, each a misfire to catch up on afterwards
            if (due.series() && !due.task().trigger().measuresFromCompletion() && !left.contains(due.instanceId())) {
                planNext(due.task(), due.scheduledTime(), null, next);
            }
        }
        planAhead(next);
    }

    /** On the dispatch thread: a claim group was settled; what fell due meanwhile goes now. */
    @Override
    public void groupSettled() {
        drainReady();
    }

    /**
     * On the dispatch thread: writes began to fail. What waits for a group that is on its way goes now, since that
     * group may not be settled before the store is back: MEMORY work runs, the rest stays in the store.
     */
    public void storeAway() {
        drainReady();
    }

    /**
     * An instance of a fixed-delay series (or a catch-up of one) ended: the series goes on from now, unless it has
     * another unfinished fire. Fires of a fixed-delay series have no shared fire times the store could deduplicate,
     * so this check is what keeps a series single after a takeover planned its next fire while an earlier one was
     * still on its way. It reads the store, so it runs on the leader's thread.
     */
    @Override
    public void ended(Due due) {
        boolean fromSeries = due.series() || due.origin() == InstanceOrigin.CATCH_UP;
        if (fromSeries && due.task().trigger().measuresFromCompletion()) {
            fixedDelays.continueFixedDelay(due, clock.instant());
        }
    }

    /** On ax-leader: the fixed-delay series of {@code due} goes on from {@code completed}, if it has no other fire. */
    public void continueSeries(Due due, Instant completed, Term term) {
        boolean another = store.findByTask(due.task().name(), 20).stream()
                .anyMatch(i -> !i.id().equals(due.instanceId())
                        && !i.state().isFinal()
                        && i.origin().isTriggerFire());
        if (another) {
            LOG.log(
                    Level.DEBUG,
                    "Task ''{0}'' has another fire pending; its series goes on from that one",
                    due.task().name());
            return;
        }
        List<Pending> next = new ArrayList<>(1);
        planNext(due.task(), due.scheduledTime(), completed, next);
        scheduleFires(next, term);
    }

    /**
     * The task was paused: its pending trigger fires are cancelled in the store (and leave this node's wheel), so
     * that while it is paused its fire times create nothing. Written at once, as an operator's action.
     *
     * @return how many were cancelled
     */
    public int cancelPending(AxTask task, String reason) {
        int cancelled = 0;
        for (TaskInstance i : store.findByTask(task.name(), 100)) {
            if (i.state() == InstanceState.SCHEDULED
                    && i.origin().isTriggerFire()
                    && store.transition(new Transition(
                            i.id(),
                            InstanceState.SCHEDULED,
                            InstanceState.CANCELLED,
                            i.attempt(),
                            nodeId,
                            clock.instant(),
                            reason))) {
                dequeue(i.id());
                cancelled++;
            }
        }
        return cancelled;
    }

    /**
     * The task was resumed: its series starts again from now, unless it still has a pending fire (a pause and a
     * resume quicker than the leader).
     */
    public List<Pending> planResumed(AxTask task, String why) {
        List<Pending> planned = new ArrayList<>(1);
        boolean pending = store.findByTask(task.name(), 100).stream()
                .anyMatch(i -> !i.state().isFinal() && i.origin().isTriggerFire());
        if (!pending) {
            Instant now = clock.instant();
            // a pinned first fire that passed belongs to the series before the pause: it goes on from now
            task.trigger()
                    .firstFireTime(now)
                    .flatMap(t ->
                            t.isAfter(now) ? Optional.of(t) : task.trigger().resumeAfter(t, now))
                    .ifPresent(t -> planned.add(new Pending(
                            task,
                            t,
                            InstanceOrigin.SERIES,
                            why + "; fire time of " + task.trigger().describe())));
        }
        return planned;
    }

    /** A series fire was cancelled: the series goes on from it, as if it had run. */
    public void continueAfterCancel(AxTask task, TaskInstance cancelled) {
        List<Pending> next = new ArrayList<>(1);
        planNext(task, cancelled.scheduledTime(), clock.instant(), next);
        planAhead(next);
    }
}
