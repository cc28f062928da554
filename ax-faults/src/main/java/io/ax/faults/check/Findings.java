package io.ax.faults.check;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the checker found: the violations of each check and the measurements. Prints each violation with what it
 * takes to understand it without a rerun: the instance, its audit trail and recorded runs, the faults around it, and
 * the command that repeats the run.
 */
public final class Findings {

    /** Violations printed in full per check; the rest are counted. */
    private static final int SHOWN = 10;

    private static final Duration AROUND = Duration.ofSeconds(10);

    private final Evidence evidence;
    private final Map<String, List<Violation>> violations;
    private final Map<String, String> promises;
    private final Metrics metrics;
    private final FailoverFindings failovers;

    Findings(
            Evidence evidence, Map<String, List<Violation>> violations, Map<String, String> promises, Metrics metrics) {
        this(evidence, violations, promises, metrics, FailoverFindings.NONE);
    }

    /** @param violations what counts, by check (without the violations {@code failovers} allows) */
    Findings(
            Evidence evidence,
            Map<String, List<Violation>> violations,
            Map<String, String> promises,
            Metrics metrics,
            FailoverFindings failovers) {
        this.evidence = evidence;
        this.violations = violations;
        this.promises = promises;
        this.metrics = metrics;
        this.failovers = failovers;
    }

    /** The violations judged against the pair's failovers' lost windows. */
    public FailoverFindings failovers() {
        return failovers;
    }

    public int violationCount() {
        return violations.values().stream().mapToInt(List::size).sum();
    }

    /** Check name -> how many violations it found, in the order the checks ran. */
    public Map<String, Integer> countsByCheck() {
        Map<String, Integer> out = new java.util.LinkedHashMap<>();
        violations.forEach((k, v) -> out.put(k, v.size()));
        return out;
    }

    public Map<String, String> promises() {
        return promises;
    }

    public Metrics metrics() {
        return metrics;
    }

    public History history() {
        return evidence.history();
    }

    /** Instances checked, by origin. */
    public Map<String, Integer> instancesByOrigin() {
        Map<String, Integer> out = new TreeMap<>();
        for (History.Instance in : evidence.history().instances().values()) {
            out.merge(in.origin(), 1, Integer::sum);
        }
        return out;
    }

    /** Prints every violation (the first few of each check in full) with its evidence and {@code repeat}. */
    public void printViolations(PrintStream out, String repeat) {
        print(out, repeat, violations, "VIOLATION");
        print(out, repeat, failovers.reported(), "REPORTED BY AX (allowed, in a lost window)");
    }

    private void print(PrintStream out, String repeat, Map<String, List<Violation>> violations, String title) {
        History h = evidence.history();
        for (Map.Entry<String, List<Violation>> entry : violations.entrySet()) {
            List<Violation> found = entry.getValue();
            for (int i = 0; i < found.size(); i++) {
                Violation v = found.get(i);
                if (i >= SHOWN) {
                    out.printf("... and %d more [%s] violations%n%n", found.size() - SHOWN, v.check());
                    break;
                }
                out.println(title + " [" + v.check() + "] " + v.message());
                printInstance(out, h, v.instanceId(), "");
                if (v.relatedId() != null) {
                    out.println("  the other instance:");
                    printInstance(out, h, v.relatedId(), "  ");
                }
                long from = v.atUs();
                long to = v.atUs();
                if (v.instanceId() != null && !h.trail(v.instanceId()).isEmpty()) {
                    List<History.Step> trail = h.trail(v.instanceId());
                    from = Math.min(from, trail.get(0).atUs());
                    to = Math.max(to, trail.get(trail.size() - 1).atUs());
                }
                List<History.Fault> around = evidence.windows().around(from, to, AROUND);
                out.println("  faults within " + AROUND.toSeconds() + " s: " + (around.isEmpty() ? "none" : ""));
                for (History.Fault f : around) {
                    out.println("    #" + f.id() + " " + f.kind() + " " + f.target() + ": " + f.detail() + ", "
                            + Times.of(f.startUs()) + " to "
                            + (f.endUs() == null ? "the end" : Times.of(f.endUs())) + " (runner +"
                            + f.monoStartMs() / 1000.0 + " s)");
                }
                out.println("  repeat: " + repeat);
                out.println();
            }
        }
    }

    /** An instance's row, audit trail and recorded runs, each line after {@code indent}; nothing for an unknown id. */
    private static void printInstance(PrintStream out, History h, String id, String indent) {
        if (id == null || !h.instances().containsKey(id)) {
            return;
        }
        History.Instance in = h.instances().get(id);
        out.println(indent + "  instance " + in.id() + " " + in.task() + " (" + in.origin() + ") " + in.state()
                + ", attempt " + in.attempt() + ", due " + Times.of(in.scheduledUs())
                + (in.key() == null ? "" : ", key " + in.key()));
        out.println(indent + "  audit trail (database time):");
        for (History.Step s : h.trail(in.id())) {
            out.println(indent + "    " + Times.of(s.atUs()) + "  " + s.from() + " -> " + s.to() + " by " + s.node()
                    + ", attempt " + s.attempt() + ": " + s.reason());
        }
        List<History.Run> runs = h.runs(in.id());
        out.println(indent + "  recorded runs: " + (runs.isEmpty() ? "none" : ""));
        for (History.Run r : runs) {
            long end = h.endOf(r);
            out.println(indent + "    attempt " + r.attempt() + " on " + r.node() + " (pid " + r.pid() + ") "
                    + Times.of(r.startUs()) + " to " + Times.of(end)
                    + (r.endUs() == null ? " (no end recorded: its process's exit)" : " " + r.outcome()));
        }
    }
}
