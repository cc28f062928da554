package io.ax.faults;

import io.ax.faults.check.Findings;
import io.ax.faults.check.History;
import io.ax.faults.check.Metrics;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The table printed after a run (Markdown, on stdout), then each violation with its evidence. */
final class RunReport {

    private final List<String[]> rows = new ArrayList<>();

    private void row(String metric, String value) {
        rows.add(new String[] {metric, value});
    }

    static void print(
            PrintStream out, String title, Findings f, Campaign.Outcome outcome, Duration wall, String repeat) {
        RunReport r = new RunReport();
        History h = f.history();
        Map<String, Integer> faults = new TreeMap<>();
        for (History.Fault fault : h.faults()) {
            faults.merge(fault.kind(), 1, Integer::sum);
        }
        r.row("faults injected", h.faults().size() + " " + render(faults));
        if (outcome != null) {
            r.row("faults skipped (no free target)", outcome.skipped().isEmpty() ? "0" : render(outcome.skipped()));
        }
        int instances = h.instances().size();
        r.row("instances checked", instances + " " + render(f.instancesByOrigin()));
        r.row("handler runs recorded", Integer.toString(h.runs().size()));
        r.row("orders checked", Integer.toString(h.orders().size()));
        r.row("**violations**", "**" + f.violationCount() + "** " + render(f.countsByCheck()));
        io.ax.faults.check.FailoverFindings failovers = f.failovers();
        if (!h.failovers().failovers().isEmpty()) {
            r.row(
                    "... of which in a failover's lost window, not reported by AX",
                    failovers.unreportedCount() + " " + render(counts(failovers.unreported())));
            r.row(
                    "violations in a lost window that AX reported (allowed)",
                    failovers.reportedCount() + " " + render(counts(failovers.reported())));
            r.row("failovers: what each lost, what AX said", String.join("<br>", failovers.each()));
            List<String> atEnd = h.failovers().said().stream()
                    .filter(s -> !s.logged())
                    .map(s -> s.node() + " " + s.source() + ": "
                            + (s.line().length() > 200 ? s.line().substring(0, 200) + "..." : s.line()))
                    .toList();
            r.row(
                    "store-regression metrics above 0 and AX health not UP, at the end of the run",
                    atEnd.isEmpty() ? "none" : String.join("<br>", atEnd));
        }
        Metrics m = f.metrics();
        r.row(
                "leader handovers, last renewal to new lease (min / median / max)",
                m.leaderHandovers().render());
        r.row("... without an injected fault near", Integer.toString(m.handoversWithoutFault()));
        r.row(
                "running attempts taken over, from when they were left to takeover (min / median / max)",
                m.runningTakeovers().render());
        r.row("... without an injected fault near", Integer.toString(m.takeoversWithoutFault()));
        r.row(
                "assignments taken back (not acknowledged in time, or node gone)",
                m.takenBack() + " (" + m.takenBackWithoutFault() + " without a fault near)");
        r.row("attempts run again after a takeover (at-least-once)", Integer.toString(m.rerunsAfterTakeover()));
        r.row(
                "overlaps after the first run's node lost its lease (allowed)",
                m.allowedOverlaps()
                        + (m.allowedOverlaps() == 0 ? "" : ", longest " + m.longestAllowedOverlapUs() / 1_000 + " ms"));
        Metrics.LimitsJudged limits = m.limits();
        r.row(
                "runs judged against limits across the cluster",
                limits.each().isEmpty()
                        ? "0 (no limit recorded)"
                        : limits.runs() + " ("
                                + String.join(
                                        "; ",
                                        limits.each().stream()
                                                .map(Metrics.LimitJudged::render)
                                                .toList())
                                + ")");
        r.row(
                "runs beyond a limit while a node holding it had lost its lease (allowed)",
                limits.allowedExcesses()
                        + (limits.allowedExcesses() == 0
                                ? ""
                                : ", longest " + limits.longestAllowedExcessUs() / 1_000 + " ms"));
        Metrics.RatesJudged rates = m.rates();
        r.row(
                "handler starts judged against rates across the cluster",
                rates.each().isEmpty()
                        ? "0 (no rate recorded)"
                        : rates.starts() + " ("
                                + String.join(
                                        "; ",
                                        rates.each().stream()
                                                .map(Metrics.RateJudged::render)
                                                .toList())
                                + ")");
        r.row(
                "starts beyond a rate with late starts among them, of nodes cut off or frozen just before or claimed"
                        + " more than the dispatch tolerance before (allowed)",
                rates.allowedExcesses() + " (" + rates.allowedForSlowStarts()
                        + " for a slow start alone); longest from a claim to its start "
                        + rates.longestLagUs() / 1_000 + " ms");
        r.row(
                "series fires started later than the misfire threshold (" + h.setting("misfire_ms", "?") + " ms)",
                m.lateFires() + " (" + m.lateWithoutFault() + " without a fault near), latest "
                        + m.latestFireUs() / 1_000 + " ms");
        r.row("catch-up fires (misfires)", Integer.toString(m.catchUps()));
        r.row(
                "fenced writes that raced a takeover (guarded by state, not a violation)",
                Long.toString(m.staleFencedWrites()));
        if (outcome != null) {
            Traffic t = new Traffic(outcome.traffic());
            r.row("traffic", t.render());
            r.row(
                    "settle (everything due final)",
                    String.format(Locale.ROOT, "%.1f s", outcome.settle().toMillis() / 1000.0));
            r.row("attempts the recorders could not write", Long.toString(outcome.unrecorded()));
            r.row(
                    "nodes that exited by themselves, started again (a start during a cut)",
                    Integer.toString(outcome.restartsAfterExit()));
            r.row(
                    "series the reconciliation found stopped and repaired (a handover that lost a next fire)",
                    Long.toString(outcome.seriesRepaired()));
        }
        r.row("wall time", String.format(Locale.ROOT, "%d min %02d s", wall.toMinutes(), wall.toSecondsPart()));

        out.println();
        out.println("### " + title);
        out.println();
        out.println("| metric | value |");
        out.println("|---|---|");
        for (String[] row : r.rows) {
            out.println("| " + row[0] + " | " + row[1] + " |");
        }
        out.println();
        out.println("Checks:");
        f.promises().forEach((name, promise) -> out.println("- " + name + ": " + promise));
        out.println();
        f.printViolations(out, repeat);
        out.println("repeat: " + repeat);
    }

    private static Map<String, Integer> counts(Map<String, List<io.ax.faults.check.Violation>> byCheck) {
        Map<String, Integer> out = new TreeMap<>();
        byCheck.forEach((k, v) -> out.put(k, v.size()));
        return out;
    }

    private static String render(Map<String, Integer> counts) {
        if (counts.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((k, v) -> parts.add(k + " " + v));
        return "(" + String.join(", ", parts) + ")";
    }

    /** The traffic's counts as one cell. */
    private record Traffic(io.ax.faults.load.Traffic.Counts c) {
        String render() {
            return "orders " + c.ordersOpened() + " (paid " + c.ordersPaid() + "), delayed " + c.delayedScheduled()
                    + " (limited " + c.limitedScheduled() + "), cancel requests " + c.cancelRequests()
                    + ", unanswered " + c.unanswered();
        }
    }
}
