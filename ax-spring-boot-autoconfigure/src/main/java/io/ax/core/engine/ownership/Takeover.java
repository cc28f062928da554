package io.ax.core.engine.ownership;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.definitions.TaskRegistry;
import io.ax.core.engine.planning.FirePlanner;
import io.ax.core.engine.scheduling.Prefetcher;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.StoredTask;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What a node does when partitions become its own, so that no decision is lost between two owners of a partition;
 * for the rows of those partitions, it:
 *
 * <ul>
 *   <li>reads which tasks are paused;
 *   <li>finds the instances in flight of non-overlapping tasks and fixed-delay series on any node, so that no second
 *       one starts and the series goes on when they end;
 *   <li>loads the SCHEDULED instances due inside the prefetch window into the wheel (later ones wait in the store
 *       for the {@link Prefetcher}); a task's pending fire whose time passed by more than the misfire threshold is
 *       handled by the task's misfire policy;
 *   <li>gives every task without a pending fire its next one (a missed one is a misfire).
 * </ul>
 *
 * Every write it makes is fenced as its row is in the new term. The work of nodes that are gone is taken over by {@link
 * Leadership} right after.
 */
final class Takeover {

    private static final System.Logger LOG = EngineLog.get();

    private final InstanceStore store;
    private final AxClock clock;
    private final String nodeId;
    private final Map<String, AxTask> tasks;
    private final TaskRegistry registry;
    private final Predicate<String> heldHere;
    private final FirePlanner fires;
    private final Dispatcher dispatcher;
    private final Prefetcher prefetcher;
    private final StateWriter writer;
    private final Leadership leadership;
    private Term term;
    /** The partitions of {@link #term}. */
    private int[] partitions;

    /**
     * @param registry the registered tasks and the paused ones: the takeover marks paused those the store remembers
     * @param heldHere whether this node holds an attempt of the instance now: claiming it, or handed to its pool and
     *     not yet done with it (a claim commits before the node hears that it won, and a pool may queue it a while)
     */
    Takeover(
            InstanceStore store,
            AxClock clock,
            String nodeId,
            TaskRegistry registry,
            Predicate<String> heldHere,
            FirePlanner fires,
            Dispatcher dispatcher,
            Prefetcher prefetcher,
            StateWriter writer,
            Leadership leadership) {
        this.store = store;
        this.clock = clock;
        this.nodeId = nodeId;
        this.tasks = registry.tasks();
        this.registry = registry;
        this.heldHere = heldHere;
        this.fires = fires;
        this.dispatcher = dispatcher;
        this.prefetcher = prefetcher;
        this.writer = writer;
        this.leadership = leadership;
    }

    /**
     * @param partitions the partitions {@code term} holds, whose rows alone it reads
     */
    void run(Term term, int[] partitions) {
        this.term = term;
        this.partitions = partitions;
        Instant now = clock.instant();
        Map<String, StoredTask> stored = new HashMap<>();
        for (StoredTask t : store.findTasks()) {
            stored.put(t.name(), t);
            if (t.paused() && tasks.containsKey(t.name())) {
                registry.pause(t.name());
            }
        }
        Set<String> inFlight = new HashSet<>();
        Set<String> seriesInFlight = new HashSet<>();
        adoptInFlight(inFlight, seriesInFlight);
        Set<String> withPendingFire = new HashSet<>();
        Set<String> unknown = new TreeSet<>();
        List<FirePlanner.Pending> planned = new ArrayList<>();
        int[] resumed = new int[1];
        // SCHEDULED instances: only those inside the prefetch window are read; the rest wait in the store
        prefetcher.takeOver(instance -> {
            AxTask task = tasks.get(instance.taskName());
            if (task == null) {
                unknown.add(instance.taskName());
                return;
            }
            Due due = new Due(task, instance);
            if (!term.decides(due.partitionKey())) {
                return; // another owner's row
            }
            resumed[0]++;
            if (due.series()) {
                withPendingFire.add(task.name());
                resumePendingFire(due, now, planned);
            } else {
                fires.enqueue(due);
            }
        });
        // read again: a deposed owner's assignment, fenced when its statement began, may have committed between the
        // two reads, so its instance was in flight for neither. Whatever was SCHEDULED at the read above and moves
        // later meets this node's own conditional assignment instead
        adoptInFlight(inFlight, seriesInFlight);
        List<AxTask> unplanned = new ArrayList<>();
        Map<String, String> recordedFire = new HashMap<>();
        for (AxTask task : tasks.values()) {
            if (withPendingFire.contains(task.name())
                    || seriesInFlight.contains(task.name())
                    || !task.trigger().firesOnItsOwn()
                    || !term.decides(task.name())) {
                continue;
            }
            unplanned.add(task);
            StoredTask storedTask = stored.get(task.name());
            if (storedTask != null && storedTask.nextFireTime() != null) {
                recordedFire.put(task.name(), TaskInstance.fireKey(storedTask.nextFireTime()));
            }
        }
        // one read for all of them, not one each: a node may gain the partitions of thousands of tasks at once
        Set<String> pending = recordedFire.isEmpty() ? Set.of() : store.scheduledWithKey(recordedFire);
        for (AxTask task : unplanned) {
            StoredTask storedTask = stored.get(task.name());
            if (storedTask == null || storedTask.nextFireTime() == null) {
                fires.planFirst(task, planned);
            } else if (pending.contains(task.name())) {
                continue; // beyond what was loaded: the prefetcher brings it when its time comes near
            } else {
                // its last fire happened, the next was never written: go on from the last
                fires.planNext(task, storedTask.nextFireTime(), now, planned);
            }
        }
        fires.scheduleFires(planned, term);
        if (resumed[0] > 0) {
            LOG.log(Level.INFO, "AX node {0} loaded {1} pending instance(s) from the store", nodeId, resumed[0]);
        }
        if (!unknown.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "The store holds unfinished instances of tasks this node does not know: {0}; "
                            + "they stay as they are until a node that knows them starts",
                    unknown);
        }
    }

    /**
     * Marks the instances of the term's partitions in flight on any node that keep a task's next instance from
     * starting (a non-overlapping task's, a fixed-delay series'), and follows those of other nodes to their end. Skips
     * the ids in {@code seen}, and adds those it read. Adds to {@code seriesInFlight} the fixed-delay tasks with a fire
     * in flight: such a series goes on from that fire's end (here, or where it runs and is followed to its end), never
     * from the move, which would start the next run less than the delay after it.
     */
    private void adoptInFlight(Set<String> seen, Set<String> seriesInFlight) {
        List<OwnedInstance> found = store.findOwned(Recovery.IN_FLIGHT, null, Integer.MAX_VALUE, partitions);
        for (OwnedInstance o : found) {
            TaskInstance in = o.instance();
            if (!seen.add(in.id())) {
                continue;
            }
            AxTask task = tasks.get(in.taskName());
            boolean endedHere =
                    nodeId.equals(o.owner()) && in.state() == InstanceState.RUNNING && !heldHere.test(in.id());
            if (endedHere) {
                // this node ran it and its end waits in the writer (the database was away): not in flight any more
                continue;
            }
            if (task != null
                    && in.origin().isTriggerFire()
                    && task.trigger().measuresFromCompletion()
                    && term.decides(task.name())) {
                seriesInFlight.add(task.name());
            }
            if (task != null
                    && o.owner() != null
                    && (!task.concurrent() || task.trigger().measuresFromCompletion())) {
                Due due = new Due(task, in);
                if (!term.decides(due.partitionKey())) {
                    continue; // another owner's task: its slot is that owner's to keep
                }
                dispatcher.markInFlight(due);
                if (!o.owner().equals(nodeId)) {
                    leadership.assigned(due, o.owner());
                }
            }
        }
    }

    private void resumePendingFire(Due due, Instant now, List<FirePlanner.Pending> planned) {
        if (!fires.isMisfire(due.scheduledTime(), now)) {
            fires.enqueue(due);
            return;
        }
        AxTask task = due.task();
        switch (task.misfire()) {
            case SKIP ->
                writer.apply(term.fenceFor(due.partitionKey())
                        .assignedTo(
                                writer.change(
                                        due.instanceId(),
                                        InstanceState.SCHEDULED,
                                        InstanceState.CANCELLED,
                                        0,
                                        "misfire policy SKIP: fire time " + due.scheduledTime()
                                                + " passed while no node ran"),
                                null));
            case FIRE_ONCE, FIRE_ALL -> fires.enqueue(due.as(InstanceOrigin.CATCH_UP));
        }
        fires.planMissed(task, due.scheduledTime(), now, false, planned);
    }
}
