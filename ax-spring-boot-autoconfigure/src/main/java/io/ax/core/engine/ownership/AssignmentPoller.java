package io.ax.core.engine.ownership;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.engine.work.Claimer;
import io.ax.core.engine.work.ExecutionPools;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Finds the instances left DISPATCHED to this node and claims them (thread {@code ax-claim}): now and then it reads
 * them, as many as its pools have room for, and hands them to the {@link Claimer}. This version writes no DISPATCHED
 * row (an owner claims a due instance in one write, SCHEDULED -&gt; RUNNING); such rows are left by an earlier
 * version, of this node's last run or assigned to it by a node of that version during an upgrade. The look goes
 * once no supported version writes them.
 */
public final class AssignmentPoller {

    private static final System.Logger LOG = EngineLog.get();
    private static final int MAX_PER_LOOK = 2_000;

    private final String nodeId;
    private final StoreRouter stores;
    /** The tasks this node knows, read only. */
    private final Map<String, AxTask> tasks;

    private final ExecutionPools pools;
    private final Claimer claimer;
    private final Duration interval;
    /** Whether this node is cut off from the cluster store: it then claims no PERSISTENT assignment. */
    private final BooleanSupplier cutOff;

    private final ScheduledThreadPoolExecutor thread;
    private volatile boolean failing;

    public AssignmentPoller(
            String nodeId,
            StoreRouter stores,
            Map<String, AxTask> tasks,
            ExecutionPools pools,
            Claimer claimer,
            Duration interval,
            BooleanSupplier cutOff) {
        this.nodeId = nodeId;
        this.cutOff = cutOff;
        this.stores = stores;
        this.tasks = tasks;
        this.pools = pools;
        this.claimer = claimer;
        this.interval = interval;
        this.thread = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("ax-claim", true));
    }

    public void start() {
        long every = interval.toNanos();
        thread.scheduleWithFixedDelay(this::look, every, every, TimeUnit.NANOSECONDS);
    }

    public void stop() {
        thread.shutdownNow();
    }

    /** An instance assigned to this node's last run: claimed on the claim thread, once its pool has room. */
    void claimLater(Due due, int attempt, long epoch) {
        try {
            thread.execute(() -> claim(List.of(new Pending(due, attempt, null, epoch))));
        } catch (RejectedExecutionException stopped) {
            // the engine stops; the next start finds it again
        }
    }

    private record Pending(Due due, int attempt, Instant assignedAt, long epoch) {}

    private void look() {
        try {
            List<Pending> found = new ArrayList<>();
            for (OwnedInstance o : stores.findOwned(EnumSet.of(InstanceState.DISPATCHED), nodeId, MAX_PER_LOOK)) {
                TaskInstance in = o.instance();
                AxTask task = tasks.get(in.taskName());
                if (task != null && !claimer.isClaiming(in.id())) { // claimed by the other path: not twice
                    found.add(new Pending(new Due(task, in), Math.max(1, in.attempt()), in.updatedAt(), o.epoch()));
                }
            }
            claim(found);
            if (failing) {
                failing = false;
                LOG.log(Level.INFO, "Node {0} reads its assignments again", nodeId);
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, "Node {0} could not read its assignments; retrying: {1}", nodeId, e.toString());
            }
        }
    }

    private void claim(List<Pending> found) {
        List<Claimer.Claim> claims = new ArrayList<>(found.size());
        boolean cut = cutOff.getAsBoolean();
        for (Pending p : found) {
            if (cut && !InstanceIds.isMemory(p.due().instanceId())) {
                // cut off: its assignments may be taken back; a claim not started would read as a running attempt.
                // It stays DISPATCHED to this node, claimed at a look once the node is back in touch
                continue;
            }
            if (pools.tryReserve(p.due().task().group())) {
                claims.add(new Claimer.Claim(p.due(), p.attempt(), null, p.assignedAt(), p.epoch()));
            } // no room: it waits for the next look (or is taken back and assigned elsewhere)
        }
        claimer.claimAndRun(claims);
    }
}
