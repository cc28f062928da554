package io.ax.bench.soak;

import io.ax.bench.ResultTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/** The summary table of a soak run and its invariants; a broken invariant is a {@link ResultTable#failure}. */
final class SoakReport {

    /** What was read at the end of the minutes, before the engine stopped. */
    record End(
            long stuck,
            long delayedLost,
            long delayedDue,
            List<String> lateAfterLastOutage,
            String storeOutage,
            String lastScheduleError) {}

    private static final String AX = "AX";

    private final SoakSettings s;
    private final Workload workload;
    private final SoakRun run;
    private final Runs runs;
    private final DelayedLedger ledger;
    private final List<Outages.Done> outages;
    private final List<Recovery> recoveries;
    private final long deletedByRetention;
    private final End end;

    SoakReport(
            SoakSettings s,
            Workload workload,
            SoakRun run,
            Runs runs,
            DelayedLedger ledger,
            List<Outages.Done> outages,
            List<Recovery> recoveries,
            long deletedByRetention,
            End end) {
        this.s = s;
        this.workload = workload;
        this.run = run;
        this.runs = runs;
        this.ledger = ledger;
        this.outages = outages;
        this.recoveries = recoveries;
        this.deletedByRetention = deletedByRetention;
        this.end = end;
    }

    ResultTable table(SoakDb.EndChecks checks, SoakDb.Sizes finalSizes) {
        List<Minute> minutes = run.minutes();
        Minute first = minutes.get(0);
        Minute last = minutes.get(minutes.size() - 1);
        Histogram lateness = run.lateness();
        ResultTable t = new ResultTable(
                String.format(Locale.ROOT, "Soak: %d minutes on PostgreSQL, %d outages", s.minutes(), outages.size()),
                List.of(AX));
        row(t, "recurring fires, first attempts", "count", f("%,d", runs.fires()));
        row(
                t,
                "recurring fires per minute (due when all goes well: " + Math.round(workload.firesPerMinute()) + ")",
                "1/min",
                f("%,.0f", runs.fires() / (double) s.minutes()));
        row(
                t,
                "delayed executions accepted / refused (scheduleAll threw)",
                "count",
                f("%,d / %,d", ledger.acceptedCount(), ledger.refusedCount()));
        row(
                t,
                "delayed executions run (of them refused ones whose write had committed)",
                "count",
                f("%,d (%,d)", runs.delayedRuns(), ledger.ranUnacceptedCount()));
        row(
                t,
                "lateness p50 / p99 / max, whole run",
                "ms",
                f(
                        "%,.0f / %,.0f / %,d",
                        SoakRun.percentile(lateness, 50), SoakRun.percentile(lateness, 99), lateness.getMaxValue()));
        row(
                t,
                "heap after GC, minute 1 / last / max",
                "MB",
                f("%.1f / %.1f / %.1f", first.heapMb(), last.heapMb(), max(minutes, Minute::heapMb)));
        row(
                t,
                "live threads, minute 1 / last / max",
                "count",
                f("%d / %d / %.0f", first.threads(), last.threads(), max(minutes, Minute::threads)));
        row(
                t,
                "rows at the end: instances / audit / dead letters",
                "count",
                f("%,d / %,d / %,d", finalSizes.instances(), finalSizes.audit(), finalSizes.deadLetters()));
        row(
                t,
                "instance rows, minute 1 / last / max",
                "count",
                f(
                        "%,d / %,d / %,.0f",
                        first.sizes().instances(),
                        last.sizes().instances(),
                        max(minutes, m -> m.sizes().instances())));
        row(t, "instances deleted by retention", "count", f("%,d", deletedByRetention));
        row(
                t,
                "outage time (proxy) / engine reported its store away",
                "s",
                f(
                        "%d / %d",
                        outageSeconds(),
                        minutes.stream().mapToLong(Minute::engineDownSeconds).sum()));
        row(t, "every task fired again after each outage, within", "s", recoveryTimes());
        row(
                t,
                "instances stuck, most in a minute / at the end",
                "count",
                f("%.0f / %d", max(minutes, Minute::stuck), end.stuck()));
        row(
                t,
                "run twice (handlers; DB: fires stored twice, attempts RUNNING twice)",
                "count",
                f("%d; %d, %d", runs.duplicates(), checks.seriesTwice(), checks.attemptsRunTwice()));
        row(t, "series forks: fires of a task closer than half its period", "count", f("%d", runs.forks()));
        row(
                t,
                "delayed executions due before end - " + s.recoveryBound().toSeconds() + " s, not run",
                "count",
                f("%,d of %,d", end.delayedLost(), end.delayedDue()));
        notes(t);
        invariants(t, checks);
        return t;
    }

    private void notes(ResultTable t) {
        t.note("Workload: " + workload.describe()
                + "; handlers as the sample app's (REPORT sleeps 0.2-1.5 s, FLAKY fails"
                + " 3 in 10 attempts with 2 retries, SLOW outlasts its 1 s timeout 1 in 5, DOOMED always fails: a dead"
                + " letter per fire), all PERSISTENT; plus " + s.delayedPerSecond() + " delayed one-shot executions a"
                + " second, due 2 s to " + s.maxDelay().toSeconds() + " s later. Pool of " + s.threads()
                + " workers; AX's JdbcInstanceStore (tables " + s.prefix() + "*) and its leader lease, through a"
                + " FaultProxy: HikariCP 8 connections, connectionTimeout 2 s, PgJDBC socketTimeout 5 s.");
        t.note("Outages: the proxy blackholes every connection (nothing crosses, nothing is closed) for "
                + s.outageFor().toSeconds() + " s every " + s.outageEvery().toSeconds() + " s from the start, while"
                + " the run goes on for the longest period plus "
                + s.recoveryBound().toSeconds() + " s after it.");
        t.note("Lateness = handler start - scheduled time, first attempts of recurring fires and delayed executions."
                + " Heap = used heap after System.gc() (smallest of three), including the soak's own records (fires"
                + " of the last " + Runs.TRACK_MILLIS / 60_000 + " minutes, a few bytes per delayed execution).");
        t.note(
                s.retention() == null
                        ? "Retention off (--retention=off): finished instances, audit rows and dead letters stay, so the"
                                + " tables grow with the run."
                        : "Retention on, short so that the tables stay bounded: finished instances (with their audit rows)"
                                + " deleted " + s.retention().toSeconds()
                                + " s after they finished, DEAD ones with their"
                                + " dead letters after " + s.retentionDead().toSeconds()
                                + " s; the leader looks every 30 s,"
                                + " batches of 500.");
        if (end.storeOutage() != null) {
            t.note("The engine still reported its store away at the end: " + end.storeOutage());
        }
        if (end.lastScheduleError() != null) {
            t.note("Last refused scheduleAll: " + end.lastScheduleError());
        }
        runs.examples().forEach(e -> t.note("Ran twice or forked: " + e));
    }

    private void invariants(ResultTable t, SoakDb.EndChecks checks) {
        check(
                t,
                runs.duplicates() == 0 && checks.seriesTwice() == 0 && checks.attemptsRunTwice() == 0,
                "nothing ran twice");
        check(
                t,
                runs.forks() == 0,
                "every series ran once: no two fires of a task closer than half its period (" + runs.forks() + ")");
        check(
                t,
                end.delayedLost() == 0,
                "no delayed execution lost (" + end.delayedLost() + " of " + end.delayedDue() + " due not run)");
        check(
                t,
                end.lateAfterLastOutage().isEmpty(),
                "every task fired within its period + " + s.recoveryBound().toSeconds() + " s after the last outage"
                        + listed(end.lateAfterLastOutage()));
        check(
                t,
                end.stuck() == 0,
                "nothing DISPATCHED or RUNNING for over " + s.stuckAfter().toSeconds() + " s at the end (" + end.stuck()
                        + ")");
        check(
                t,
                checks.deadWithoutLetter() == 0,
                "every DEAD instance has its dead letter (" + checks.deadWithoutLetter() + " without)");
        check(
                t,
                checks.illegalTransitions().isEmpty(),
                "every audit row an arrow of the state machine" + listed(checks.illegalTransitions()));
    }

    private static void check(ResultTable t, boolean holds, String invariant) {
        if (holds) {
            t.note("Invariant held: " + invariant + ".");
        } else {
            t.failure(invariant);
        }
    }

    private static String listed(List<String> items) {
        if (items.isEmpty()) {
            return "";
        }
        return ": " + String.join(", ", items.subList(0, Math.min(10, items.size())))
                + (items.size() > 10 ? " and " + (items.size() - 10) + " more" : "");
    }

    private long outageSeconds() {
        return Math.round(outages.stream()
                        .mapToLong(o -> Duration.between(o.start(), o.end()).toMillis())
                        .sum()
                / 1000.0);
    }

    private String recoveryTimes() {
        if (recoveries.isEmpty()) {
            return "no outage";
        }
        List<String> times = new ArrayList<>();
        for (Recovery r : recoveries) {
            long ms = r.allFiredAfterMillis();
            times.add(ms < 0 ? "not all" : String.format(Locale.ROOT, "%.1f", ms / 1000.0));
        }
        return String.join(" / ", times);
    }

    private static double max(List<Minute> minutes, ToDoubleFunction<Minute> f) {
        return minutes.stream().mapToDouble(f).max().orElse(Double.NaN);
    }

    private static void row(ResultTable t, String metric, String unit, String value) {
        t.text(metric, unit, Map.of(AX, value));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
