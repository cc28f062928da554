package io.ax.core.engine.work;

import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.writes.StateWriter;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The claim: an attempt starts only after this node has moved its instance to RUNNING with one conditional write
 * that the store confirmed (fenced by its partition's epoch, or {@code owner = this node}). One group of writes
 * claims many instances; those this node lost (taken over, cancelled, claimed by a restarted incarnation) do not
 * run. Every claim comes with a place already reserved in its pool, so a claimed instance always finds room.
 */
public final class Claimer {

    private static final System.Logger LOG = EngineLog.get();

    /**
     * An instance to claim, with its place reserved.
     *
     * @param write the conditional write that claims it: SCHEDULED -&gt; RUNNING (a retry's RETRYING -&gt; RUNNING)
     * @param assignedAt when it was decided, for the claim's latency; null when not measured
     * @param epoch the epoch its claim (or takeover) carried, for the attempt's fencing token
     */
    public record Claim(Due due, int attempt, Transition write, Instant assignedAt, long epoch) {}

    private final String nodeId;
    private final StateWriter writer;
    private final Insight insight;
    private final ExecutionPools pools;
    /** A claimed attempt handed off: held by this node from then on; the work its pool's thread runs. */
    private final java.util.function.Function<Execution, Runnable> handOff;
    /** Gives back to the store what a pool refused (it shut down: the engine stops). */
    private final Consumer<List<Execution>> returnUnstarted;
    /** A claim refused by its fence (this node no longer owns the partition): the current owner handles it. */
    private final Consumer<FencedOutException> fencedOut;
    /** Instances this node is claiming right now: held here (a takeover leaves them alone), though no runner yet. */
    private final java.util.Set<String> claiming = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public Claimer(
            String nodeId,
            StateWriter writer,
            Insight insight,
            ExecutionPools pools,
            java.util.function.Function<Execution, Runnable> handOff,
            Consumer<List<Execution>> returnUnstarted,
            Consumer<FencedOutException> fencedOut) {
        this.nodeId = nodeId;
        this.writer = writer;
        this.insight = insight;
        this.pools = pools;
        this.handOff = handOff;
        this.returnUnstarted = returnUnstarted;
        this.fencedOut = fencedOut;
    }

    /** Marks an instance as being claimed here (its claim is on its way to the store). */
    public void claiming(String instanceId) {
        claiming.add(instanceId);
    }

    /** The claim of an instance marked with {@link #claiming} was settled. */
    public void settled(String instanceId) {
        claiming.remove(instanceId);
    }

    /** Whether this node is claiming an instance right now. */
    public boolean isClaiming(String instanceId) {
        return claiming.contains(instanceId);
    }

    /**
     * Claims as one group; each instance won goes to its pool the moment the store confirms it (on the writer's
     * thread). Never waits for the store.
     */
    public void claimAndRun(List<Claim> claims) {
        if (claims.isEmpty()) {
            return;
        }
        List<Transition> transitions = new ArrayList<>(claims.size());
        for (Claim c : claims) {
            claiming.add(c.due().instanceId());
            transitions.add(c.write());
        }
        List<CompletableFuture<Boolean>> outcomes = writer.submitAllOrFail(transitions);
        for (int k = 0; k < claims.size(); k++) {
            Claim c = claims.get(k);
            Transition claim = transitions.get(k);
            outcomes.get(k).whenComplete((won, failed) -> settle(c, claim, won, failed));
        }
    }

    private void settle(Claim c, Transition claim, Boolean won, Throwable failed) {
        boolean ok = false;
        if (failed instanceof FencedOutException e) {
            fencedOut.accept(e); // refused by the fence: this node no longer owns the partition
        } else if (failed != null) {
            LOG.log(
                    Level.WARNING,
                    "Instance {0} could not be claimed; it is taken back if it stays unclaimed: {1}",
                    c.due().instanceId(),
                    failed.toString());
        } else {
            ok = won;
            StateWriter.logMove(claim, won);
        }
        if (!ok) {
            claiming.remove(c.due().instanceId());
            // the instance is elsewhere (taken over, cancelled, ended): its task's slot is not this claim's to free;
            // it is freed when the end is heard of
            pools.unreserve(c.due().task().group());
            insight.released(c.due());
            return;
        }
        run(c);
        claiming.remove(c.due().instanceId()); // held by the runner from the hand-off on: no moment it is neither
    }

    /** Hands an instance this node claimed (its place reserved) to its pool. */
    public void run(Claim c) {
        run(c, java.util.function.UnaryOperator.identity());
    }

    /**
     * Hands an instance this node claimed (its place reserved) to its pool, its work wrapped by {@code around} (what
     * follows the attempt on its worker: the permits it gives back).
     */
    public void run(Claim c, java.util.function.UnaryOperator<Runnable> around) {
        if (c.assignedAt() != null) {
            insight.acknowledged(c.due().task(), c.assignedAt());
        }
        Execution execution = new Execution(c.due(), c.attempt(), c.epoch());
        insight.handingOff(c.due(), c.attempt());
        try {
            pools.submitReserved(c.due().task().group(), execution, around.apply(handOff.apply(execution)));
            insight.handedOff(c.due());
        } catch (RejectedExecutionException stopped) {
            // only a pool that shut down refuses a reserved place: the engine stops, and the instance goes back
            returnUnstarted.accept(List.of(execution));
        }
    }
}
