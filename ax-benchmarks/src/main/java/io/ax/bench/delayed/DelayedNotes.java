package io.ax.bench.delayed;

import static io.ax.bench.delayed.DelayedScenario.AX;
import static io.ax.bench.delayed.DelayedScenario.DBS;

import io.ax.bench.ResultTable;
import io.ax.bench.delayed.DelayedRun.Measured;
import io.ax.bench.delayed.DelayedRun.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The lines under the "delayed" table: how each row was measured, the configuration, and the checks. */
final class DelayedNotes {

    private DelayedNotes() {}

    static void add(
            ResultTable t,
            Map<String, Measured> r,
            MemoryHeap.Result bare,
            MemoryHeap.Result withPayload,
            Plan plan,
            boolean axInfoLog) {
        int pending = plan.pending().size();
        t.note(String.format(
                Locale.ROOT,
                "Each system in turn in this JVM, on its own freshly created schema of the same PostgreSQL, %d"
                        + " worker threads each, through the same phases on one schema: the backlog, (AX) a"
                        + " restart, the timed executions, the burst. The backlog stays in the tables throughout.",
                plan.threads()));
        t.note(String.format(
                Locale.ROOT,
                "Scheduling: %,d executions due between +1 h and +25 h (one in each of %,d equal slices, in a seeded"
                        + " random order; the same times for both), in calls of %,d from one thread while the"
                        + " scheduler runs. AX: `AxScheduler.scheduleAll(List<ScheduleRequest>)`, PERSISTENT, each"
                        + " instance written with its CREATED and SCHEDULED audit rows. db-scheduler:"
                        + " `scheduleBatch(List<SchedulableInstance>)` on the running `Scheduler` (its bulk call for"
                        + " executions with their own times: one JDBC batch insert per call). Timed from the first"
                        + " call to the last return; then ANALYZE on both schemas (not timed).",
                pending,
                pending,
                plan.batch()));
        t.note(String.format(
                Locale.ROOT,
                "Execute-due: %,d executions of a no-op handler all due at one instant, written the same way"
                        + " while the scheduler runs, then ANALYZE, all before that instant (lead: AX %s s,"
                        + " db-scheduler %s s; written in AX %s s, db-scheduler %s s). Without that ANALYZE"
                        + " db-scheduler drained about 3x slower in a trial (its planner did not know of rows due"
                        + " now); a database in service analyzes after that many inserts. Timed from the due"
                        + " instant until every handler ran and the store holds none unfinished: AX every instance"
                        + " of the handler in a final state in `ax_instance`, db-scheduler no row of the task left"
                        + " (it deletes a finished one-time execution); checked every 20 ms once every handler has"
                        + " run.",
                plan.burst(),
                format(r, AX, Measured::burstLead),
                format(r, DBS, Measured::burstLead),
                format(r, AX, Measured::burstWriteSeconds),
                format(r, DBS, Measured::burstWriteSeconds)));
        t.note(String.format(
                Locale.ROOT,
                "Heap (AX only; db-scheduler keeps nothing in memory): an engine with its in-memory store and no"
                        + " database; %,d MEMORY executions (`ScheduleRequest.durability(MEMORY)`, no key) due"
                        + " between +1 h and +25 h through `scheduleAll` in calls of %,d; used heap (MemoryMXBean,"
                        + " smallest of three readings after System.gc()) after minus before, divided by %,d; the"
                        + " ids returned are dropped. It counts the pending `MemoryTask` and its wheel slot,"
                        + " including the spare capacity of the slot arrays (they grow by half; under G1 such large"
                        + " arrays are counted by whole regions), so the figure depends on where N falls between two growth steps:"
                        + " trial runs gave 86 B at 500,000, 82 B at 750,000, 73 B at 1,000,000, 78 B at 1,250,000,"
                        + " 73 B at 1,500,000 and 106 B at 200,000 (the quick run). With payload: the 16-character ASCII String"
                        + " `0123456789abcdef`, encoded to a 16-byte array per execution. MEMORY scheduling ran at"
                        + " %s executions/s (no payload).",
                plan.memory(),
                plan.batch(),
                plan.memory(),
                bare == null ? "—" : String.format(Locale.ROOT, "%,.0f", bare.schedulePerSecond())));
        t.note(String.format(
                Locale.ROOT,
                "Ready to fire (AX only): after the backlog the engine is stopped and its pool closed, the rows"
                        + " stay. The parent writes %d canary executions due every %d ms from %d ms on and launches"
                        + " a child JVM (`java %s -cp ax-benchmarks.jar io.ax.bench.delayed.ReadyToFire`), which"
                        + " builds a HikariCP pool of %d and an engine with the same tasks and calls `start()`"
                        + " (recovery: the in-flight lookup, then the window load: SCHEDULED instances due within"
                        + " the 60 s window, read in pages of 5,000 from the due-time index). Process start = just"
                        + " before the parent's `ProcessBuilder.start()`; ready = `start()` returned (both"
                        + " `System.currentTimeMillis()`). Then it schedules one execution due 1 s after ready and"
                        + " waits for it (its lateness is a row) and for the canaries. The store calls of `start()`"
                        + " are timed through a timing proxy of `InstanceStore`. The restart row: a new pool and"
                        + " engine in this JVM on the same rows, built and started (after the child; warm JIT).",
                ReadyToFire.CANARIES,
                ReadyToFire.CANARY_STEP.toMillis(),
                ReadyToFire.CANARY_OFFSET.toMillis(),
                ReadyToFire.CHILD_HEAP,
                AxDelayed.CONNECTIONS));
        t.note(String.format(
                Locale.ROOT,
                "Lateness: %,d executions due between %d s and %d s after their writing began (one per slice,"
                        + " seeded random order), written in calls of %,d with the backlog in the store; lateness ="
                        + " handler start - scheduled time (AX `AxContext.scheduledTime()`, db-scheduler"
                        + " `Execution.executionTime`), in a microsecond HdrHistogram. AX puts each into the wheel"
                        + " as it is written (inside its 60 s window); db-scheduler finds them by polling every %d ms.",
                plan.late().size(),
                plan.lateStart().toSeconds(),
                plan.lateEnd().toSeconds(),
                plan.batch(),
                DbSchedulerDelayed.POLLING_INTERVAL.toMillis()));
        t.note(String.format(
                Locale.ROOT,
                "Configuration. AX: `JdbcInstanceStore` on a pool of %d connections (schema bench_ax), audit log"
                        + " on, prefetch window 60 s, page 5,000, limit 100,000 (the defaults), one on-demand task"
                        + " per handler (concurrent), pool 'default' = %d threads with queue %,d (the whole burst: no"
                        + " rejections), %s. db-scheduler 16.7.1: one `OneTimeTask` per handler, threads %d,"
                        + " pollingInterval %d ms (default 10 s), `pollUsingLockAndFetch(%.1f, %.1f)` (its"
                        + " recommendation for PostgreSQL), pool of %d connections.",
                AxDelayed.CONNECTIONS,
                plan.threads(),
                plan.burst(),
                axInfoLog ? "logger io.ax at INFO (--ax-info-log=true)" : "logger io.ax at WARN",
                plan.threads(),
                DbSchedulerDelayed.POLLING_INTERVAL.toMillis(),
                DbSchedulerDelayed.LOWER_LIMIT,
                DbSchedulerDelayed.UPPER_LIMIT,
                plan.threads() + 4));
        checks(t, r, bare, withPayload, plan);
    }

    private static String format(Map<String, Measured> r, String system, Function<Measured, Double> metric) {
        Measured m = r.get(system);
        return m == null ? "—" : String.format(Locale.ROOT, "%.1f", metric.apply(m));
    }

    private static void checks(
            ResultTable t, Map<String, Measured> r, MemoryHeap.Result bare, MemoryHeap.Result withPayload, Plan plan) {
        List<String> problems = new ArrayList<>();
        r.forEach((name, m) -> {
            if (m.pendingFired() > 0) {
                problems.add(String.format(
                        Locale.ROOT, "%s ran %,d far-future executions during the run", name, m.pendingFired()));
            }
            if (m.lateness().getTotalCount() < plan.late().size()) {
                problems.add(String.format(
                        Locale.ROOT,
                        "%s ran %,d of %,d timed executions",
                        name,
                        m.lateness().getTotalCount(),
                        plan.late().size()));
            }
            if (m.lateEarly() > 0) {
                problems.add(String.format(
                        Locale.ROOT, "%s ran %,d timed executions before their time", name, m.lateEarly()));
            }
            if (m.burstExecuted() < plan.burst()) {
                problems.add(String.format(
                        Locale.ROOT,
                        "%s did not drain the burst within %d s: %,d of %,d ran; its rate is over that time",
                        name,
                        plan.maxSeconds(),
                        m.burstExecuted(),
                        plan.burst()));
            }
            ReadyToFire.Result ready = m.ready();
            if (ready != null
                    && (ready.unexpected() > 0
                            || ready.canariesFired() < ReadyToFire.CANARIES
                            || Double.isNaN(ready.probeLateMillis()))) {
                problems.add(String.format(
                        Locale.ROOT,
                        "the restarted child ran %d of %d canaries, %s the execution due after ready, and %d"
                                + " executions it should not have",
                        ready.canariesFired(),
                        ReadyToFire.CANARIES,
                        Double.isNaN(ready.probeLateMillis()) ? "not" : "also",
                        ready.unexpected()));
            }
        });
        if ((bare != null && bare.fired() > 0) || (withPayload != null && withPayload.fired() > 0)) {
            problems.add("MEMORY executions of the heap rounds ran during the measurement");
        }
        Measured ax = r.get(AX);
        if (ax != null && ax.ready() != null) {
            ReadyToFire.Result ready = ax.ready();
            t.note(String.format(
                    Locale.ROOT,
                    "Restarted child: JVM start (RuntimeMXBean) to ready %.2f s; the window load read %,d rows in %d"
                            + " call(s); the in-flight lookup took %.3f s; %d of %d canaries were due after ready,"
                            + " the latest of them ran %.1f ms late; the execution due 1 s after ready started"
                            + " %.2f s after the process start.",
                    ready.jvmToReady(),
                    ready.windowLoad().rows(),
                    ready.windowLoad().count(),
                    ready.inFlightLookup().seconds(),
                    ready.canariesDueAfterReady(),
                    ReadyToFire.CANARIES,
                    ready.canariesAfterReadyMaxLateMillis(),
                    ready.launchToProbeFired()));
        }
        if (problems.isEmpty()) {
            t.note("Checks passed: no far-future execution ran; every timed execution ran, none early; every burst"
                    + " drained; the restarted child ran every canary and the execution due after ready, and"
                    + " nothing else.");
        } else {
            problems.forEach(p -> t.note("ANOMALY: " + p));
        }
    }
}
