package io.ax.core.engine.work;

import io.ax.core.AttemptError;
import io.ax.core.AuditEntry;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxExecutor;
import io.ax.core.AxIdempotency;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.PayloadCodec;
import io.ax.core.RetryPolicy;
import io.ax.core.SecretParams;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.AttemptTracer;
import io.ax.core.engine.AttemptTransactions;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.logging.Loggers;
import io.ax.core.store.InstanceStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs one attempt on a pool thread and decides what follows it: SUCCESS, or FAILED/TIMEOUT and then a retry after
 * the back-off or DEAD with a dead letter. Logs one summary line per finished instance, a WARN without stack trace
 * per failed attempt, and the full stack trace once, when an instance goes DEAD.
 *
 * <p>Why it is long: one attempt's whole life is decided here, on the threads that run it (start, timeout, success,
 * failure, retry, death with its dead letter), each outcome written conditionally.
 */
public final class InstanceRunner implements Dispatcher.Attempts {

    private static final System.Logger LOG = EngineLog.get();
    /** One line per successful instance; its own logger, so a busy application can quiet it alone. */
    private static final System.Logger SUMMARY = Loggers.get("io.ax.instances");

    /** The longest failure message a log line shows. */
    static final int LOGGED_MESSAGE = 500;

    /** Where an attempt's instance goes on once the runner has decided, and whether it may start here at all. */
    public interface Outcomes {

        /** Whether this node is cut off from the cluster store (its PERSISTENT work may run elsewhere). */
        boolean cutOff();

        /** How many cut-offs so far were long enough for the others to take this node for dead. */
        long cutOffs();

        /** The instance reached a final state (SUCCESS, DEAD): its slot, its series and its workflow run go on. */
        void ended(Due due);

        /** On the dispatch thread: the instance went back to the store unstarted; its task's slot is free. */
        void released(Due due);

        /** Dispatches the given attempt of a RETRYING instance, fenced by {@code epoch}. */
        void retry(Due due, int attempt, long epoch);
    }

    /** Where a dead letter goes once its instance is DEAD. */
    public interface DeadLetters {

        /** Stores it, trying again while the store is away and the engine runs; null when given up. */
        DeadLetter store(String what, java.util.function.Supplier<DeadLetter> call);

        /** A dead letter was written: its count is read again. */
        void changed();

        /** Tells the application's dead-letter listeners. */
        void publish(AxDeadLetterEvent event);
    }

    /** What an attempt's context hands the handler: the store, the codec of payloads, idempotency, workflows. */
    public record ContextServices(
            InstanceStore store, PayloadCodec codec, AxIdempotency idempotency, Workflows workflows) {}

    private final String nodeId;
    private final AxClock clock;
    private final StoreRouter stores;
    private final StateWriter writer;
    /** The writer of successful ends, which gives way to {@code writer}'s starts. */
    private final StateWriter endWriter;

    private final Insight insight;
    private final AttemptTracer tracer;
    /** Runs the attempts of transactional tasks; null when the store offers no transactions. */
    private final AttemptTransactions transactions;

    private final ExecutorRouter router;
    private final ContextServices services;
    /** The timer of its timeouts, the outcomes thread, the dispatch thread. */
    private final EngineThreads threads;

    private final Outcomes outcomes;
    private final DeadLetters deadLetters;
    /** What follows an attempt that ended with its node. */
    private final Takeovers takeovers;
    /**
     * Attempts this node holds, by instance: from their hand-off to a pool (claimed, maybe not started yet) until
     * their worker is done with them.
     */
    private final java.util.Map<String, Execution> held = new java.util.concurrent.ConcurrentHashMap<>();

    public InstanceRunner(
            String nodeId,
            AxClock clock,
            StoreRouter stores,
            StateWriter writer,
            StateWriter endWriter,
            Insight insight,
            AttemptTracer tracer,
            AttemptTransactions transactions,
            ExecutorRouter router,
            ContextServices services,
            EngineThreads threads,
            Outcomes outcomes,
            DeadLetters deadLetters,
            Takeovers takeovers) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.stores = stores;
        this.writer = writer;
        this.endWriter = endWriter;
        this.insight = insight;
        this.tracer = tracer;
        this.transactions = transactions;
        this.router = router;
        this.services = services;
        this.threads = threads;
        this.outcomes = outcomes;
        this.deadLetters = deadLetters;
        this.takeovers = takeovers;
    }

    /**
     * Whether this node holds an attempt of the instance now: handed to its pool (its claim won), waiting there for
     * a worker or run by one. The store says RUNNING from the claim on, and may say it a while after the worker is
     * done: the end of an attempt is recorded without waiting, and waits in the writer while the database is away.
     */
    @Override
    public boolean holds(String instanceId) {
        return held.containsKey(instanceId);
    }

    /**
     * An attempt this node claimed goes to its pool: it is held here from now on, though no worker may take it for a
     * while (its pool's queue). Returns the pool's work: the attempt.
     */
    public Runnable handOff(Execution ex) {
        ex.cutOffsAtHandOff = outcomes.cutOffs();
        held.put(ex.instanceId(), ex);
        return () -> run(ex);
    }

    /** Attempts handed off that no worker will start (their pool refused them, or stopped): not held here any more. */
    public void notStarted(List<Execution> unstarted) {
        unstarted.forEach(ex -> held.remove(ex.instanceId(), ex));
    }

    /**
     * Whether a worker of this node has the final outcome of the instance (SUCCESS or DEAD) and is about to free
     * its task's slot: the instance has ended in all but the bookkeeping.
     */
    @Override
    public boolean isEnding(String instanceId) {
        Execution ex = held.get(instanceId);
        return ex != null && ex.ending;
    }

    /** On a pool thread. Never throws: a failing task must not kill a scheduler thread. */
    private void run(Execution ex) {
        try {
            attempt(ex);
        } finally {
            held.remove(ex.instanceId(), ex);
        }
    }

    /**
     * This node lost the cluster store for so long that the other nodes may take it for dead and run its work
     * elsewhere: every PERSISTENT attempt running here is interrupted now, so that it does not go on beside its
     * second run, and recorded as a takeover (then run again, see {@link Takeovers}) once the store answers, if this
     * node still owns it then. MEMORY attempts live in this process only: nobody else runs them, and they go on.
     *
     * @return how many attempts were stopped
     */
    public int stopPersistentAttempts(String reason) {
        int stopped = 0;
        for (Execution ex : held.values()) {
            if (InstanceIds.isMemory(ex.instanceId()) || !ex.endEarly()) {
                continue;
            }
            stopped++;
            threads.afterwards(() -> {
                try {
                    afterLostAttempts(List.of(new LostAttempt(ex, reason, null, Fence.NONE)));
                } catch (RuntimeException e) {
                    unrecorded(ex, e);
                }
            });
        }
        return stopped;
    }

    /**
     * At a stop whose shutdown wait is over: every PERSISTENT attempt still running here is interrupted and recorded
     * now, on the stopping thread, as a takeover ({@link Takeovers}): it is not its handler's failure, and it runs
     * again on the node that next owns it, which need not wait for this node's lease to lapse (this node leaves the
     * registry as it stops). Its worker's own end, should it come, records nothing. MEMORY attempts end with the
     * process.
     *
     * @return how many attempts were handed over
     */
    public int handOverAtStop(Duration waited) {
        List<LostAttempt> lost = new ArrayList<>();
        for (Execution ex : held.values()) {
            if (InstanceIds.isMemory(ex.instanceId()) || !ex.endEarly()) {
                continue;
            }
            lost.add(new LostAttempt(
                    ex,
                    "node " + nodeId + " stopped while it ran attempt " + ex.attempt + ", which was still running when"
                            + " its shutdown wait of " + waited.toMillis() + " ms ended; interrupted",
                    null,
                    Fence.NONE));
        }
        if (lost.isEmpty()) {
            return 0;
        }
        try {
            afterLostAttempts(lost);
        } catch (RuntimeException e) {
            lost.forEach(l -> unrecorded(l.ex(), e));
        }
        return lost.size();
    }

    private void attempt(Execution ex) {
        AxTask task = ex.task();
        // in this order: a break seen only once it is over is counted before the contact is made fresh
        boolean cutOff = outcomes.cutOff();
        boolean cutOffSince = outcomes.cutOffs() != ex.cutOffsAtHandOff;
        if ((cutOff || cutOffSince) && !InstanceIds.isMemory(ex.instanceId())) {
            // the other nodes may take this node for dead and run it themselves (or have since it was claimed, though
            // this node reaches the store again): it goes back unstarted (unless another node took it over first),
            // rather than run beside its second run
            insight.released(ex.due);
            writer.record(writer.owned(
                            ex.instanceId(),
                            InstanceState.RUNNING,
                            InstanceState.SCHEDULED,
                            ex.attempt,
                            "returned: node " + nodeId
                                    + (cutOffSince
                                            ? " was cut off from the cluster store after it claimed attempt "
                                                    + ex.attempt + ", long enough to be taken for dead; it did not"
                                                    + " start it"
                                            : " is cut off from the cluster store; it did not start attempt "
                                                    + ex.attempt),
                            null,
                            Fence.NONE))
                    .thenAccept(applied -> {
                        if (applied) {
                            // back in the store, due: the slot of its task, held here when this node assigned it
                            // as the leader, is free for it (the leader's sweep finds it), not held for good
                            threads.onDispatchThread(() -> outcomes.released(ex.due));
                        }
                    });
            return;
        }
        // the Claimer moved it to RUNNING, confirmed by the store, before it came here
        insight.started(ex.due, ex.attempt);
        ex.begin(Thread.currentThread(), clock.nanoTime());
        ex.timeoutHandle = threads.after(task.timeout(), () -> expire(ex));
        AxExecutor executor = null;
        AxResult result = null;
        Throwable error = null;
        RunContext context = null;
        InTransaction tx = null;
        AttemptTracer.Scope span = beginSpan(ex);
        try {
            AxTask run = withRunParams(ex); // a store that fails here fails the attempt, which is retried
            context = new RunContext(
                    task.name(),
                    ex.instanceId(),
                    ex.attempt,
                    ex.epoch,
                    ex.scheduledTime(),
                    nodeId,
                    run.params(),
                    services.store(),
                    services.codec(),
                    services.idempotency(),
                    services.workflows());
            executor = router.route(task.type());
            if (task.transactional() && transactions == null && !InstanceIds.isMemory(ex.instanceId())) {
                // a definition made on a node that has them (a runtime task, say): never run without the guarantee
                throw new IllegalStateException("task '" + task.name() + "' is transactional, and node " + nodeId
                        + " has no transactions of AX's database to run it in (a JDBC store and a transaction manager"
                        + " on its DataSource)");
            }
            if (inTransaction(ex)) {
                tx = new InTransaction();
                result = transactionally(ex, executor, run, context, tx);
            } else {
                result = executor.execute(run, context);
            }
        } catch (Throwable t) {
            error = unwrap(t);
            if (t instanceof RolledBack back && back.result != null) {
                error = null;
                result = back.result; // a failure the handler returned: its writes went with the rollback
            }
        } finally {
            threads.cancelTimer(ex.timeoutHandle);
        }
        if (tx != null && tx.finished) {
            // the worker won the race against the timeout inside the transaction: what became of it is decided there
            endSpan(ex, span, error == null ? "success" : "failed", error);
            Thread.interrupted();
            settleTransaction(ex, executor, context, result, error, tx);
            return;
        }
        boolean mine = ex.finish();
        Thread.interrupted(); // an interrupt meant for this attempt must not reach the next work of this thread
        endSpan(
                ex,
                span,
                !mine ? "timeout" : error == null && (result == null || result.succeeded()) ? "success" : "failed",
                error);
        if (!mine) {
            return; // its timeout (or its node's cut-off) ended this attempt and decides what follows
        }
        long tookNanos = clock.nanoTime() - ex.startNanos;
        try {
            if (error == null && (result == null || result.succeeded())) {
                succeed(ex, executor, context, result == null ? AxResult.success() : result, tookNanos);
            } else {
                String message = error != null ? describe(error) : "returned failure: " + result.message();
                if (executor != null) {
                    notifyFailure(executor, task, context, error != null ? error : new IllegalStateException(message));
                }
                afterBadAttempt(ex, InstanceState.FAILED, message, error, tookNanos);
            }
        } catch (RuntimeException | LinkageError e) {
            unrecorded(ex, e); // a worker thread outlives whatever the store (or a missing class) throws
        }
    }

    /** Whether the attempt runs inside a transaction with the record of its success. */
    private boolean inTransaction(Execution ex) {
        return ex.task().transactional() && transactions != null && !InstanceIds.isMemory(ex.instanceId());
    }

    /** What happened inside an attempt's transaction, for the worker to settle after it ended. */
    private static final class InTransaction {
        /** Whether the worker won the race against the timeout (and so decides the attempt's outcome). */
        boolean finished;
        /** Whether the success was written (the last statement); false when another node had the instance. */
        boolean applied;
    }

    /** Ends an attempt's transaction without committing it: a failure the handler returned, or a lost race. */
    private static final class RolledBack extends Exception {
        private final transient AxResult result;

        RolledBack(AxResult result, String why) {
            super(why, null, false, false);
            this.result = result;
        }
    }

    /**
     * Runs the handler and then records its success, in one transaction: the success is its last statement,
     * conditional on this node still owning the attempt. The handler's writes are rolled back with a failure it
     * returns or throws, with a timeout that won the race, and when the instance was taken over meanwhile.
     */
    private AxResult transactionally(
            Execution ex, AxExecutor executor, AxTask run, RunContext context, InTransaction tx) throws Exception {
        return transactions.inTransaction(ex.task().timeout(), () -> {
            AxResult r = executor.execute(run, context);
            if (r != null && !r.succeeded()) {
                throw new RolledBack(r, "the handler returned a failure");
            }
            if (!ex.finish()) {
                throw new RolledBack(null, "the attempt timed out"); // its timeout records the outcome
            }
            tx.finished = true;
            AxResult ok = r == null ? AxResult.success() : r;
            tx.applied = stores.transition(writer.owned(
                    ex.instanceId(),
                    InstanceState.RUNNING,
                    InstanceState.SUCCESS,
                    ex.attempt,
                    ok.message().isEmpty() ? AuditEntry.DEFAULT_SUCCESS_REASON : ok.message(),
                    null,
                    Fence.NONE));
            if (!tx.applied) {
                throw new RolledBack(null, "the instance was taken over");
            }
            return ok;
        });
    }

    /**
     * After an attempt's transaction, when the worker had won the race against the timeout: committed, the success is
     * recorded already and what follows it runs; otherwise the transaction was rolled back, or its commit failed
     * and the row says which.
     */
    private void settleTransaction(
            Execution ex, AxExecutor executor, RunContext context, AxResult result, Throwable error, InTransaction tx) {
        long tookNanos = clock.nanoTime() - ex.startNanos;
        try {
            if (error == null) {
                afterSuccess(ex, executor, context, result, tookNanos);
            } else if (!tx.applied) {
                if (error instanceof RolledBack) {
                    LOG.log(
                            Level.WARNING,
                            "Task ''{0}'' instance {1}: attempt {2} succeeded here but another node took the instance"
                                    + " over first; its transaction was rolled back",
                            ex.task().name(),
                            ex.instanceId(),
                            ex.attempt);
                } else {
                    // the success could not be written: the transaction, the handler's writes with it, rolled back
                    afterBadAttempt(
                            ex,
                            InstanceState.FAILED,
                            "its success could not be recorded, its transaction was rolled back: " + describe(error),
                            error,
                            tookNanos);
                }
            } else {
                commitInDoubt(ex, executor, context, error, tookNanos);
            }
        } catch (RuntimeException | LinkageError e) {
            unrecorded(ex, e);
        }
    }

    /**
     * The commit of an attempt's transaction failed, and the database may have committed it all the same (a
     * connection cut during the commit). A FAILED conditional on this node's RUNNING attempt tells: it applies only if
     * the transaction did not commit, the handler's writes undone with it; otherwise the row shows the committed
     * SUCCESS, and what follows a success runs.
     */
    private void commitInDoubt(Execution ex, AxExecutor executor, RunContext context, Throwable error, long tookNanos) {
        String why = "the commit of its transaction failed: " + describe(error);
        if (applyOwned(ex, InstanceState.RUNNING, InstanceState.FAILED, why, null, Fence.NONE)) {
            insight.finished(ex.task(), InstanceState.FAILED, tookNanos);
            retryOrDie(ex, InstanceState.FAILED, why, error, tookNanos, null, Fence.NONE);
            return;
        }
        boolean committed = stores.find(ex.instanceId())
                .filter(i -> i.state() == InstanceState.SUCCESS && i.attempt() == ex.attempt)
                .isPresent();
        if (committed) {
            afterSuccess(ex, executor, context, AxResult.success(), tookNanos);
        }
    }

    private AttemptTracer.Scope beginSpan(Execution ex) {
        try {
            return tracer.begin(new AttemptTracer.Attempt(
                    ex.task(), ex.instanceId(), ex.attempt, ex.scheduledTime(), ex.due.traceParent()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The attempt tracer failed to begin: {0}", e.toString());
            return outcome -> {};
        }
    }

    private static void endSpan(Execution ex, AttemptTracer.Scope span, String outcome, Throwable error) {
        try {
            span.end(new AttemptTracer.Outcome(outcome, error));
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "The attempt tracer failed to end attempt {0} of instance {1}: {2}",
                    ex.attempt,
                    ex.instanceId(),
                    e.toString());
        }
    }

    /**
     * The task as this attempt runs it: a run on demand may carry parameters of its own (its payload), laid over the
     * task's. Read from the store on the worker's thread, for runs on demand only.
     */
    private AxTask withRunParams(Execution ex) {
        if (ex.due.origin() != io.ax.core.InstanceOrigin.ON_DEMAND) {
            return ex.task();
        }
        return stores.payload(ex.instanceId())
                .map(bytes -> RunParams.with(ex.task(), RunParams.decode(bytes)))
                .orElse(ex.task());
    }

    /**
     * The outcome of an attempt could not be recorded: only when the engine stops (the writer refuses) or the store
     * refuses the write for good. The instance stays as the store has it; this node's next start, or the leader once
     * this node is gone, takes it from there.
     */
    private static void unrecorded(Execution ex, Throwable e) {
        LOG.log(
                Level.WARNING,
                "Task ''{0}'' instance {1}: the outcome of attempt {2} was not recorded; the instance is recovered"
                        + " from the store: {3}",
                ex.task().name(),
                ex.instanceId(),
                ex.attempt,
                e.toString());
    }

    private void succeed(Execution ex, AxExecutor executor, RunContext context, AxResult result, long tookNanos) {
        ex.ending = true;
        // the worker won the race against the timeout (Execution.finish); the write is conditional on this node
        // still owning the instance, so a node that was declared dead meanwhile does not overwrite the takeover
        endWriter.record(writer.owned(
                ex.instanceId(),
                InstanceState.RUNNING,
                InstanceState.SUCCESS,
                ex.attempt,
                result.message().isEmpty() ? AuditEntry.DEFAULT_SUCCESS_REASON : result.message(),
                null,
                Fence.NONE));
        afterSuccess(ex, executor, context, result, tookNanos);
    }

    /**
     * The end of an attempt this node ran to SUCCESS and committed, which the store lost (it went back in time): the
     * end is written again, and what follows a success follows, instead of running the attempt again.
     *
     * @return whether the end was written (false: the row moved on meanwhile)
     */
    public boolean endAgain(Execution ex) {
        boolean applied = writer.apply(writer.owned(
                ex.instanceId(),
                InstanceState.RUNNING,
                InstanceState.SUCCESS,
                ex.attempt,
                "succeeded: node " + nodeId + " had committed this end, which the store lost; written again",
                null,
                Fence.NONE));
        if (applied) {
            outcomes.ended(ex.due);
        }
        return applied;
    }

    /** What follows a success once it is recorded, or on its way to the store. */
    private void afterSuccess(Execution ex, AxExecutor executor, RunContext context, AxResult result, long tookNanos) {
        ex.ending = true;
        insight.finished(ex.task(), InstanceState.SUCCESS, tookNanos);
        try {
            executor.onSuccess(ex.task(), context, result);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "onSuccess of {0} failed for task ''{1}'': {2}",
                    executor.getClass().getSimpleName(),
                    ex.task().name(),
                    e.toString());
        }
        SUMMARY.log(
                Level.INFO,
                "Task ''{0}'' instance {1} SUCCESS on attempt {2} in {3} ms",
                ex.task().name(),
                ex.instanceId(),
                ex.attempt,
                tookNanos / 1_000_000);
        outcomes.ended(ex.due);
    }

    /**
     * On the dispatch thread: the attempt's timeout elapsed. The worker is interrupted at once; what follows (store
     * writes, perhaps a dead letter) runs off the dispatch thread.
     */
    private void expire(Execution ex) {
        if (!ex.endEarly()) {
            return;
        }
        long tookNanos = clock.nanoTime() - ex.startNanos;
        threads.afterwards(() -> {
            try {
                afterBadAttempt(
                        ex,
                        InstanceState.TIMEOUT,
                        "timed out after " + ex.task().timeout() + "; thread interrupted",
                        null,
                        tookNanos);
            } catch (RuntimeException e) {
                unrecorded(ex, e);
            }
        });
    }

    /**
     * Applies a change of this attempt's instance, conditional on this node owning it (or, with {@code takenFrom}
     * not null, taking it over from that node as {@code fence}'s decision); false when the instance was elsewhere.
     */
    private boolean applyOwned(
            Execution ex, InstanceState from, InstanceState to, String reason, String takenFrom, Fence fence) {
        return writer.apply(writer.owned(ex.instanceId(), from, to, ex.attempt, reason, takenFrom, fence));
    }

    /** Records a failed attempt of this node's and what follows it. */
    private void afterBadAttempt(Execution ex, InstanceState outcome, String message, Throwable error, long tookNanos) {
        AxTask task = ex.task();
        if (!applyOwned(ex, InstanceState.RUNNING, outcome, message, null, Fence.NONE)) {
            return;
        }
        insight.finished(task, outcome, tookNanos);
        retryOrDie(ex, outcome, message, error, tookNanos, null, Fence.NONE);
    }

    /**
     * An attempt that ended with its node (gone, cut off or restarted while it ran), to record as a takeover and run
     * again as {@code fence}'s decision.
     *
     * @param ex the attempt, with the epoch its node claimed it at
     * @param message what happened to its node, for the audit trail (the takeover's mark goes before it)
     * @param takenFrom the node that ran it, or null for an instance no node owned, or this node's own
     * @param fence the decision this node takes it over as; {@link Fence#NONE} for an attempt this node owns
     */
    public record LostAttempt(Execution ex, String message, String takenFrom, Fence fence) {}

    /**
     * Takes over attempts whose nodes are gone (or this node's own, cut off or found RUNNING at its start): each is
     * recorded FAILED with the takeover's mark ({@link io.ax.core.AuditEntry#TAKEOVER}), not as a failure of its
     * handler, and runs again at once, or goes DEAD once its instance's takeovers are used up ({@link Takeovers}).
     * The changes go to the store as two groups for all of them, with one batched read of their takeover counts
     * between, where one attempt at a time would wait for three round trips each: a dead node may leave thousands of
     * attempts RUNNING (those claimed into its pools' queues). An attempt whose change lost (another node decided
     * first) is left alone.
     *
     * @throws RuntimeException the first failure (the store refused or is away), once the attempts whose changes
     *     applied have been followed up
     */
    public void afterLostAttempts(List<LostAttempt> lost) {
        if (lost.isEmpty()) {
            return;
        }
        List<Transition> failed = new ArrayList<>(lost.size());
        for (LostAttempt l : lost) {
            failed.add(writer.owned(
                    l.ex().instanceId(),
                    InstanceState.RUNNING,
                    InstanceState.FAILED,
                    l.ex().attempt,
                    Takeovers.reason(l.message()),
                    l.takenFrom(),
                    l.fence()));
        }
        GroupWrite first = GroupWrite.of(writer, failed);
        List<LostAttempt> decided = new ArrayList<>();
        for (int i = 0; i < lost.size(); i++) {
            if (!first.applied(i)) {
                continue;
            }
            LostAttempt l = lost.get(i);
            insight.takenOver(l.ex().task());
            // taken over: this node owns the instance now, and what follows carries the takeover's epoch
            Execution ex = l.fence().any()
                    ? new Execution(l.ex().due, l.ex().attempt, l.fence().epoch())
                    : l.ex();
            decided.add(new LostAttempt(ex, l.message(), l.takenFrom(), Fence.NONE));
        }
        Map<String, Integer> counts = Map.of();
        RuntimeException unread = null;
        try {
            counts = decided.isEmpty()
                    ? Map.of()
                    : stores.takeovers(
                            decided.stream().map(d -> d.ex().instanceId()).toList());
        } catch (RuntimeException e) {
            // left FAILED: decided by whoever next finds it so (this node's next start, or the owner after it)
            unread = e;
            decided.clear();
        }
        List<Transition> next = new ArrayList<>(decided.size());
        for (LostAttempt d : decided) {
            // the row just written counts: at least this takeover
            next.add(takeovers.next(writer, d.ex(), Math.max(1, counts.getOrDefault(d.ex().instanceId(), 1))));
        }
        GroupWrite second = GroupWrite.of(writer, next);
        // one line for the lot, not one each: a dead node may leave thousands (each instance's own line at DEBUG,
        // its trail in the audit); a takeover used up still logs its dead letter, each
        Map<String, Integer> againPerTask = new TreeMap<>();
        for (int i = 0; i < next.size(); i++) {
            if (!second.applied(i)) {
                continue;
            }
            LostAttempt d = decided.get(i);
            Execution ex = d.ex();
            if (!Takeovers.runsAgain(next.get(i))) {
                dead(ex, next.get(i).reason() + "; " + d.message(), null, 0);
                continue;
            }
            againPerTask.merge(ex.task().name(), 1, Integer::sum);
            LOG.log(
                    Level.DEBUG,
                    "Task ''{0}'' instance {1} attempt {2} taken over: {3}; it runs again now",
                    ex.task().name(),
                    ex.instanceId(),
                    ex.attempt,
                    brief(d.message()));
            int attempt = ex.attempt + 1;
            long epoch = ex.epoch;
            threads.after(Duration.ZERO, () -> outcomes.retry(ex.due, attempt, epoch));
        }
        if (!againPerTask.isEmpty()) {
            Set<String> from = new TreeSet<>();
            for (LostAttempt l : lost) {
                // no node named: a row no node owned (taken over by decision), or this node's own
                from.add(l.takenFrom() != null ? l.takenFrom() : l.fence().any() ? "no node" : nodeId);
            }
            LOG.log(
                    Level.WARNING,
                    "Node {0} took over {1} attempt(s) left RUNNING by {2} (it crashed, froze, lost the store or"
                            + " restarted while they ran); each runs again now, as a takeover (not a failure of its"
                            + " handler; at most {3} per instance). Per task: {4}",
                    nodeId,
                    againPerTask.values().stream().mapToInt(Integer::intValue).sum(),
                    from,
                    takeovers.bound(),
                    againPerTask);
        }
        first.rethrow();
        if (unread != null) {
            throw unread;
        }
        second.rethrow();
    }

    /**
     * What follows an attempt recorded as failed ({@code outcome}: FAILED or TIMEOUT): its retry, or DEAD. With
     * {@code takenFrom} not null, this node takes the instance over from that node, gone after it recorded the
     * failure and before it decided what follows, as {@code fence}'s decision; with {@code takenFrom} null and no
     * fence, this node decides for an instance it owns (its own last run's, at its start, say).
     */
    public void retryOrDie(
            Execution ex,
            InstanceState outcome,
            String message,
            Throwable error,
            long tookNanos,
            String takenFrom,
            Fence fence) {
        NextAfterFailure next = nextAfterFailure(ex, outcome, takenFrom, fence, retriesNow(error));
        if (writer.apply(next.change())) {
            followFailure(ex, next, outcome, message, error, tookNanos, fence);
        } // else: decided elsewhere meanwhile
    }

    /** The change that follows a failed attempt, and the wait before its retry (when it is one). */
    private record NextAfterFailure(Transition change, Duration backoff) {}

    /**
     * The change that follows a failed attempt: to RETRYING while its policy allows one more (or, with {@code now},
     * whatever it says), else to DEAD.
     */
    private NextAfterFailure nextAfterFailure(
            Execution ex, InstanceState outcome, String takenFrom, Fence fence, boolean now) {
        RetryPolicy retry = ex.task().retry();
        int handlerAttempts = ex.attempt;
        int takenOver = 0;
        if (!now && !retry.allowsRetryAfter(ex.attempt)) {
            // by its number the last attempt; but the attempts taken over from their nodes were none of the
            // handler's failures (this one too, when a node died before it decided what follows a takeover). Read
            // only here, on the way to DEAD (which reads the whole trail for its letter): a failure while retries
            // last costs no read
            takenOver = stores.takeovers(List.of(ex.instanceId())).getOrDefault(ex.instanceId(), 0);
            handlerAttempts = ex.attempt - takenOver;
        }
        if (now || retry.allowsRetryAfter(handlerAttempts)) {
            // no failure of the handler yet: the attempt decided is a takeover, which runs again at once
            Duration wait = now || handlerAttempts < 1 ? Duration.ZERO : retry.delayBeforeRetry(handlerAttempts);
            return new NextAfterFailure(
                    writer.owned(
                            ex.instanceId(),
                            outcome,
                            InstanceState.RETRYING,
                            ex.attempt,
                            "attempt " + (ex.attempt + 1) + " in " + wait,
                            takenFrom,
                            fence),
                    wait);
        }
        return new NextAfterFailure(
                writer.owned(
                        ex.instanceId(),
                        outcome,
                        InstanceState.DEAD,
                        ex.attempt,
                        "retries used up after " + ex.attempt + " attempt(s)"
                                + (takenOver > 0 ? ", " + takenOver + " of them taken over from their node" : ""),
                        takenFrom,
                        fence),
                Duration.ZERO);
    }

    /**
     * What follows the change {@link #nextAfterFailure} made, once it applied: the retry's timer, or the letter.
     */
    private void followFailure(
            Execution ex,
            NextAfterFailure decided,
            InstanceState outcome,
            String message,
            Throwable error,
            long tookNanos,
            Fence fence) {
        if (decided.change().to() == InstanceState.DEAD) {
            dead(ex, message, error, tookNanos);
            return;
        }
        AxTask task = ex.task();
        Duration wait = decided.backoff();
        int next = ex.attempt + 1;
        insight.retried(task);
        LOG.log(
                Level.WARNING,
                "Task ''{0}'' instance {1} attempt {2} {3}: {4}; retrying in {5} ms",
                task.name(),
                ex.instanceId(),
                ex.attempt,
                outcome,
                brief(message),
                wait.toMillis());
        // the retry carries the epoch of the takeover that decided it, or else that of this attempt
        long epoch = fence.any() ? fence.epoch() : ex.epoch;
        threads.after(wait, () -> outcomes.retry(ex.due, next, epoch));
    }

    /** What follows an instance's move to DEAD: its dead letter, the event, and its task's slot freed. */
    private void dead(Execution ex, String message, Throwable error, long tookNanos) {
        AxTask task = ex.task();
        ex.ending = true;
        try {
            DeadLetter letter = deadLetters.store(
                    "the dead letter of instance " + ex.instanceId(), () -> deadLetter(ex, message, error));
            if (letter == null) {
                return; // the engine stopped first: the instance is DEAD, the next start finds it without its letter
            }
            insight.deadLettered(task);
            deadLetters.changed();
            if (error != null) {
                LOG.log(
                        Level.ERROR,
                        "Task '" + task.name() + "' instance " + ex.instanceId() + " DEAD after " + ex.attempt
                                + " attempt(s) in " + tookNanos / 1_000_000 + " ms: " + brief(message),
                        error);
            } else {
                LOG.log(
                        Level.ERROR,
                        "Task ''{0}'' instance {1} DEAD after {2} attempt(s): {3}",
                        task.name(),
                        ex.instanceId(),
                        ex.attempt,
                        brief(message));
            }
            deadLetters.publish(new AxDeadLetterEvent(letter));
        } finally {
            outcomes.ended(ex.due); // DEAD is final: the task's slot is free and its series goes on, letter or not
        }
    }

    /** Writes the dead letter of an instance that just went DEAD, with the errors of its attempts. */
    private DeadLetter deadLetter(Execution ex, String message, Throwable error) {
        List<AttemptError> attempts = stores.auditTrail(ex.instanceId()).stream()
                .filter(e -> e.to() == InstanceState.FAILED || e.to() == InstanceState.TIMEOUT)
                .map(InstanceRunner::attemptError)
                .toList();
        DeadLetter letter = new DeadLetter(
                ex.instanceId(),
                ex.task().name(),
                ex.scheduledTime(),
                SecretParams.redact(ex.task().params()), // a dead letter is shown and stored: no credentials
                attempts,
                error == null ? message : stackTrace(error),
                clock.instant());
        stores.saveDeadLetter(letter);
        return letter;
    }

    private static AttemptError attemptError(AuditEntry e) {
        return new AttemptError(e.attempt(), e.to(), e.reason(), e.at());
    }

    private static void notifyFailure(AxExecutor executor, AxTask task, RunContext context, Throwable error) {
        try {
            executor.onFailure(task, context, error);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "onFailure of {0} failed for task ''{1}'': {2}",
                    executor.getClass().getSimpleName(),
                    task.name(),
                    e.toString());
        }
    }

    /** Whether the attempt's failure asks for the next attempt at once, whatever the retry policy says. */
    private static boolean retriesNow(Throwable error) {
        return error instanceof io.ax.core.RetryNowException;
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof InvocationTargetException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getName() + (message == null ? "" : ": " + message);
    }

    /**
     * A failure's message as logged: its start. An executor may record much on the instance (an HTTP body, a
     * script's output), which stays whole in the audit trail; a log line stays short.
     */
    static String brief(String message) {
        if (message.length() <= LOGGED_MESSAGE) {
            return message;
        }
        return message.substring(0, LOGGED_MESSAGE) + "... (" + (message.length() - LOGGED_MESSAGE)
                + " more characters not logged)";
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
