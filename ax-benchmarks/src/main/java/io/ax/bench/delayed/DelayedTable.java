package io.ax.bench.delayed;

import static io.ax.bench.delayed.DelayedScenario.AX;
import static io.ax.bench.delayed.DelayedScenario.DBS;
import static io.ax.bench.delayed.DelayedScenario.values;

import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.delayed.DelayedRun.Measured;
import io.ax.bench.delayed.DelayedRun.Plan;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The table of the "delayed" scenario: rows per metric, its goals, and how each row was measured. */
final class DelayedTable {

    private static final double HEAP_GOAL_BYTES = 100;
    private static final double READY_GOAL_SECONDS = 5;

    private DelayedTable() {}

    static ResultTable of(
            Map<String, Measured> r,
            MemoryHeap.Result bare,
            MemoryHeap.Result withPayload,
            Plan plan,
            boolean axInfoLog) {
        int pending = plan.pending().size();
        int burst = plan.burst();
        ResultTable t = new ResultTable("Delayed one-shot tasks", List.of(AX, DBS));
        t.row(
                String.format(Locale.ROOT, "scheduling %,d far-future executions", pending),
                "executions/s",
                Better.HIGHER,
                values(r, m -> pending / m.scheduleSeconds()));
        t.row("PostgreSQL server CPU while scheduling", "s", Better.LOWER, values(r, Measured::scheduleServerCpu));
        t.row(
                String.format(Locale.ROOT, "execute-due: %,d due at once", burst),
                "executions/s",
                Better.HIGHER,
                values(r, m -> Math.min(burst, m.burstExecuted()) / m.burstSeconds()));
        t.row("time from due to all finished", "s", Better.LOWER, values(r, Measured::burstSeconds));
        t.row("PostgreSQL server CPU while draining", "s", Better.LOWER, values(r, Measured::burstServerCpu));
        t.row(
                String.format(Locale.ROOT, "heap per pending MEMORY execution, %,d in the wheel", plan.memory()),
                "bytes",
                Better.LOWER,
                axOnly(bare == null ? Double.NaN : bare.bytesPerTask()));
        t.row(
                "heap per pending MEMORY execution with a 16-byte String payload",
                "bytes",
                Better.LOWER,
                axOnly(withPayload == null ? Double.NaN : withPayload.bytesPerTask()));
        t.row(
                String.format(Locale.ROOT, "process start to ready to fire, %,d pending (child JVM)", pending),
                "s",
                Better.LOWER,
                axOnly(ready(r, ReadyToFire.Result::launchToReady)));
        t.row("of which AxEngine.start()", "s", Better.LOWER, axOnly(ready(r, ReadyToFire.Result::engineStart)));
        t.row(
                "of which loading the window (findScheduled)",
                "s",
                Better.LOWER,
                axOnly(ready(r, x -> x.windowLoad().seconds())));
        t.row(
                "execution due 1 s after ready: lateness",
                "ms",
                Better.LOWER,
                axOnly(ready(r, ReadyToFire.Result::probeLateMillis)));
        t.row(
                "restart in the same JVM (new pool + engine, start)",
                "s",
                Better.LOWER,
                axOnly(r.containsKey(AX) ? r.get(AX).restartSeconds() : Double.NaN));
        for (double p : new double[] {50, 99, 99.9}) {
            t.row(
                    String.format(Locale.ROOT, "fire lateness p%s under the backlog", p == 99.9 ? "99.9" : (int) p),
                    "ms",
                    Better.LOWER,
                    values(
                            r,
                            m -> m.lateness().getTotalCount() == 0
                                    ? Double.NaN
                                    : m.lateness().getValueAtPercentile(p) / 1e3));
        }
        t.row(
                "fire lateness max under the backlog",
                "ms",
                Better.LOWER,
                values(
                        r,
                        m -> m.lateness().getTotalCount() == 0
                                ? Double.NaN
                                : m.lateness().getMaxValue() / 1e3));
        goals(t, r, bare, burst, pending);
        DelayedNotes.add(t, r, bare, withPayload, plan, axInfoLog);
        return t;
    }

    private static void goals(ResultTable t, Map<String, Measured> r, MemoryHeap.Result bare, int burst, int pending) {
        if (r.containsKey(AX) && r.containsKey(DBS)) {
            double ax = Math.min(burst, r.get(AX).burstExecuted()) / r.get(AX).burstSeconds();
            double dbs =
                    Math.min(burst, r.get(DBS).burstExecuted()) / r.get(DBS).burstSeconds();
            t.note(String.format(
                    Locale.ROOT,
                    "Goal, execute-due above db-scheduler's executions/s: %s (%,.0f/s vs %,.0f/s, %.2fx).",
                    ax > dbs ? "met" : "not met",
                    ax,
                    dbs,
                    ax / dbs));
        }
        if (bare != null) {
            t.note(String.format(
                    Locale.ROOT,
                    "Goal, heap per pending MEMORY execution under %.0f bytes: %s (%.1f bytes).",
                    HEAP_GOAL_BYTES,
                    bare.bytesPerTask() < HEAP_GOAL_BYTES ? "met" : "not met",
                    bare.bytesPerTask()));
        }
        double ready = ready(r, ReadyToFire.Result::launchToReady);
        if (!Double.isNaN(ready)) {
            t.note(String.format(
                    Locale.ROOT,
                    "Goal, ready to fire under %.0f s after a process start with %,d pending: %s (%.2f s).",
                    READY_GOAL_SECONDS,
                    pending,
                    ready < READY_GOAL_SECONDS ? "met" : "not met",
                    ready));
        }
    }

    static double ready(Map<String, Measured> r, Function<ReadyToFire.Result, Double> metric) {
        Measured ax = r.get(AX);
        return ax == null || ax.ready() == null ? Double.NaN : metric.apply(ax.ready());
    }

    private static Map<String, Double> axOnly(double value) {
        return Map.of(AX, value);
    }
}
