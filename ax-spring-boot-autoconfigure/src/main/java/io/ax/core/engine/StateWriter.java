package io.ax.core.engine;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Group commit for state changes: callers on any thread hand in transitions, one writer thread ({@code ax-writer})
 * drains what has gathered and applies it with one {@link InstanceStore#transitionAll} call, so a database sees one
 * transaction for many instances. Transitions are applied in the order they were handed in, so the changes of one
 * instance never overtake each other. A caller that needs the outcome waits for its future; the others go on.
 *
 * <p>The queue is bounded: when the store falls behind, callers wait for room (never the wheel thread, which
 * only hands work on).
 */
final class StateWriter {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());
    private static final int MAX_BATCH = 2_000;

    private record Write(Transition transition, CompletableFuture<Boolean> outcome) {}

    private final InstanceStore store;
    private final BlockingQueue<Write> queue;
    private final Thread thread;
    private volatile boolean running = true;

    private final String nodeId;
    private final AxClock clock;

    StateWriter(InstanceStore store, int capacity, String nodeId, AxClock clock) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.store = store;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::loop, "ax-writer");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Hands in a transition; the future tells whether it applied (false: the instance was elsewhere). */
    CompletableFuture<Boolean> submit(Transition transition) {
        CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        Write write = new Write(transition, outcome);
        try {
            while (!queue.offer(write, 100, TimeUnit.MILLISECONDS)) {
                if (!running) {
                    outcome.completeExceptionally(new IllegalStateException("the AX state writer has stopped"));
                    return outcome;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome.completeExceptionally(e);
        }
        return outcome;
    }

    /** Hands in transitions as one group; the futures tell, per transition, whether it applied. */
    List<CompletableFuture<Boolean>> submitAll(List<Transition> transitions) {
        List<CompletableFuture<Boolean>> outcomes = new ArrayList<>(transitions.size());
        for (Transition t : transitions) {
            outcomes.add(submit(t));
        }
        return outcomes;
    }

    /** Applies what is queued, then stops the writer thread; waits at most {@code awaitMillis}. */
    void stop(long awaitMillis) {
        running = false;
        thread.interrupt();
        try {
            thread.join(awaitMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        List<Write> batch = new ArrayList<>(MAX_BATCH);
        while (running || !queue.isEmpty()) {
            try {
                Write first = running ? queue.take() : queue.poll();
                if (first == null) {
                    break;
                }
                batch.add(first);
            } catch (InterruptedException e) {
                continue; // stop() interrupts: drain what is left, then leave
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            flush(batch);
            batch.clear();
        }
    }

    private void flush(List<Write> batch) {
        List<Transition> transitions = new ArrayList<>(batch.size());
        for (Write w : batch) {
            transitions.add(w.transition());
        }
        try {
            boolean[] applied = store.transitionAll(transitions);
            for (int i = 0; i < applied.length; i++) {
                batch.get(i).outcome().complete(applied[i]);
            }
        } catch (FencedOutException e) {
            // a deposed leader's decisions fail; the other changes in the group (an owner's ends of attempts) stand
            List<Write> others = new ArrayList<>(batch.size());
            for (Write w : batch) {
                if (w.transition().fence() > 0) {
                    w.outcome().completeExceptionally(e);
                } else {
                    others.add(w);
                }
            }
            if (!others.isEmpty()) {
                flush(others);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "AX could not write {0} state change(s): {1}", batch.size(), e.toString());
            for (Write w : batch) {
                w.outcome().completeExceptionally(e);
            }
        }
    }

    /** A conditional transition with its audit row; false when the instance was no longer in {@code from}. */
    boolean move(String instanceId, InstanceState from, InstanceState to, int attempt, String reason) {
        return apply(change(instanceId, from, to, attempt, reason));
    }

    /** A change made by this node now, to be refined (owner, fence) and applied. */
    Transition change(String instanceId, InstanceState from, InstanceState to, int attempt, String reason) {
        return new Transition(instanceId, from, to, attempt, nodeId, clock.instant(), reason);
    }

    /** Applies a transition and waits for the outcome; false when the instance was elsewhere. */
    boolean apply(Transition t) {
        return outcome(submit(t), t);
    }

    /**
     * A change of an instance this node owns (the end of an attempt, a retry), conditional on owning it still; with
     * {@code fence} above 0, the leader of that epoch takes the instance over from {@code takenFrom} (a node that is
     * gone; null for an instance no node owned) instead.
     */
    Transition owned(
            String instanceId,
            InstanceState from,
            InstanceState to,
            int attempt,
            String reason,
            String takenFrom,
            long fence) {
        Transition t = change(instanceId, from, to, attempt, reason);
        return fence > 0 ? t.takenFrom(takenFrom, nodeId, fence) : t.ownedBy(nodeId);
    }

    /**
     * Records a transition without waiting for the store. For changes no other writer can contend for on this
     * node (the start and end of an attempt that this node's worker is running); they reach the store in order,
     * after every change handed in before them.
     */
    void record(Transition t) {
        String instanceId = t.instanceId();
        InstanceState from = t.from();
        InstanceState to = t.to();
        submit(t).whenComplete((applied, error) -> {
            if (error != null || !applied) {
                LOG.log(
                        Level.WARNING,
                        "Instance {0} {1} -> {2} was not recorded: {3}",
                        instanceId,
                        from,
                        to,
                        error != null ? error.toString() : "it was no longer " + from);
            } else {
                logMove(t, true);
            }
        });
    }

    boolean outcome(CompletableFuture<Boolean> future, Transition t) {
        boolean applied;
        try {
            applied = future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        logMove(t, applied);
        return applied;
    }

    private static void logMove(Transition t, boolean applied) {
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(
                    Level.DEBUG,
                    "Instance {0} {1} -> {2} (attempt {3}){4}: {5}",
                    t.instanceId(),
                    t.from(),
                    t.to(),
                    t.attempt(),
                    applied ? "" : " lost the race",
                    t.reason());
        }
    }
}
