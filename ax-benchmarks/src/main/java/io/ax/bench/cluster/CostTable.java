package io.ax.bench.cluster;

import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.cluster.CostCounters.TableRows;
import io.ax.bench.cluster.CostUsage.Kind;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The {@code cost} scenario's table: a block of rows per workload and node count, every figure per execution, AX
 * beside db-scheduler; then how the node counts compare, and the idle background ({@link CostNotes} adds the notes).
 */
final class CostTable {

    private CostTable() {}

    /** What the notes say about where the run took place. */
    record Machine(String serverVersion, long postmaster, double loadBefore, double loadAfter) {}

    static ResultTable of(CostSettings s, List<CostRound.Result> results, Machine machine, Path logDir) {
        ResultTable t = new ResultTable(
                "Cost of one PERSISTENT execution in PostgreSQL, 1 and 3 nodes",
                s.systems(),
                s.systems().get(0));
        for (String workload : s.workloads()) {
            for (int n : s.nodeCounts()) {
                Map<String, CostRound.Result> r = of(results, workload, n);
                if (!r.isEmpty()) {
                    rows(t, s, workload, n, r, results);
                }
            }
            for (int n : s.nodeCounts()) {
                if (n != s.nodeCounts().get(0)) {
                    scaling(t, s, workload, s.nodeCounts().get(0), n, results);
                }
            }
        }
        for (int n : s.nodeCounts()) {
            idleRows(t, n, of(results, CostSettings.BURST, n));
        }
        CostNotes.add(t, s, results, machine, logDir);
        return t;
    }

    private static Map<String, CostRound.Result> of(List<CostRound.Result> results, String workload, int n) {
        Map<String, CostRound.Result> out = new LinkedHashMap<>();
        for (CostRound.Result r : results) {
            if (r.workload().equals(workload) && r.nodes() == n) {
                out.put(r.system(), r);
            }
        }
        return out;
    }

    static String nodes(int n) {
        return n + (n == 1 ? " node" : " nodes");
    }

    static String name(CostSettings s, String workload) {
        return workload.equals(CostSettings.BURST)
                ? String.format(Locale.ROOT, "burst of %,d", s.burstTasks())
                : String.format(Locale.ROOT, "recurring %,d/s", s.rate());
    }

    private static void rows(
            ResultTable t,
            CostSettings s,
            String workload,
            int n,
            Map<String, CostRound.Result> r,
            List<CostRound.Result> all) {
        String p = name(s, workload) + ", " + nodes(n) + ": ";
        t.text(
                p + "executions measured / due",
                "count",
                cells(r, x -> String.format(Locale.ROOT, "%,d / %,d", x.executions(), x.due())));
        t.row(p + "statements", "1/exec", Better.LOWER, values(r, x -> x.usage().calls()));
        t.text(
                p + "statements by kind: select / insert / update / delete / BEGIN+COMMIT / other",
                "1/exec",
                cells(r, x -> byKind(x.usage(), x.executions())));
        t.row(p + "of the statements, the idle background meanwhile", "1/exec", Better.LOWER, values(r, x -> {
            CostRound.Idle idle = idleOf(x, all);
            return idle == null ? Double.NaN : idle.usage().calls() / idle.seconds() * x.seconds();
        }));
        t.row(p + "rows per INSERT/UPDATE/DELETE statement", "rows", Better.HIGHER, perStatement(r));
        t.row(
                p + "transactions",
                "1/exec",
                Better.LOWER,
                values(r, x -> x.usage().commits()));
        t.row(
                p + "instance table row versions (inserts + updates)",
                "1/exec",
                Better.LOWER,
                values(r, x -> x.usage().table(x.instanceTable()).versions()));
        t.text(
                p + "instance table: inserts / updates (HOT) / deletes",
                "1/exec",
                cells(r, x -> tableRows(x.usage().table(x.instanceTable()), x.executions())));
        t.row(
                p + "audit rows",
                "1/exec",
                Better.LOWER,
                values(
                        r,
                        x -> x.auditTable() == null
                                ? Double.NaN
                                : x.usage().table(x.auditTable()).inserted()));
        t.row(
                p + "row versions, all tables",
                "1/exec",
                Better.LOWER,
                values(r, x -> x.usage().allTables().versions()));
        t.row(p + "WAL", "bytes/exec", Better.LOWER, values(r, x -> x.usage().walBytes()));
        t.row(p + "PostgreSQL CPU (busy machine)", "µs/exec", Better.LOWER, values(r, x -> x.serverCpu() * 1e6));
        if (workload.equals(CostSettings.BURST)) {
            t.text(
                    p + "of which the write: statements / WAL bytes / CPU µs",
                    "1/exec",
                    cells(
                            r,
                            x -> x.write() == null
                                    ? "—"
                                    : String.format(
                                            Locale.ROOT,
                                            "%s / %s / %s",
                                            fmt(x.write().calls() / exec(x)),
                                            fmt(x.write().walBytes() / exec(x)),
                                            fmt(x.writeCpu() * 1e6 / exec(x)))));
        }
    }

    /** Rows "<metric>, N nodes / 1 node": how much more an execution costs on more nodes. */
    private static void scaling(
            ResultTable t, CostSettings s, String workload, int base, int n, List<CostRound.Result> all) {
        Map<String, CostRound.Result> one = of(all, workload, base);
        Map<String, CostRound.Result> many = of(all, workload, n);
        String p = name(s, workload) + ": ";
        String ratio = ", " + nodes(n) + " / " + nodes(base);
        ratioRow(
                t,
                p + "statements per execution" + ratio,
                one,
                many,
                x -> x.usage().calls());
        ratioRow(
                t,
                p + "instance row versions per execution" + ratio,
                one,
                many,
                x -> x.usage().table(x.instanceTable()).versions());
        ratioRow(
                t,
                p + "WAL bytes per execution" + ratio,
                one,
                many,
                x -> x.usage().walBytes());
    }

    private static void ratioRow(
            ResultTable t,
            String metric,
            Map<String, CostRound.Result> one,
            Map<String, CostRound.Result> many,
            ToDoubleFunction<CostRound.Result> total) {
        Map<String, Double> out = new LinkedHashMap<>();
        many.forEach((system, x) -> {
            CostRound.Result b = one.get(system);
            if (b != null) {
                out.put(system, (total.applyAsDouble(x) / exec(x)) / (total.applyAsDouble(b) / exec(b)));
            }
        });
        t.row(metric, "x", Better.LOWER, out);
    }

    private static void idleRows(ResultTable t, int n, Map<String, CostRound.Result> bursts) {
        Map<String, CostRound.Idle> idle = new LinkedHashMap<>();
        bursts.forEach((system, r) -> {
            if (r.idle() != null) {
                idle.put(system, r.idle());
            }
        });
        if (idle.isEmpty()) {
            return;
        }
        String p = "idle, " + nodes(n) + ": ";
        t.row(p + "statements", "1/s", Better.LOWER, rates(idle, i -> i.usage().calls()));
        t.row(
                p + "transactions",
                "1/s",
                Better.LOWER,
                rates(idle, i -> i.usage().commits()));
        t.row(
                p + "row versions, all tables",
                "1/s",
                Better.LOWER,
                rates(idle, i -> i.usage().allTables().versions()));
        t.row(p + "WAL", "bytes/s", Better.LOWER, rates(idle, i -> i.usage().walBytes()));
        t.row(p + "PostgreSQL CPU (busy machine)", "ms/s", Better.LOWER, rates(idle, i -> i.serverCpu() * 1e3));
    }

    private static Map<String, Double> rates(Map<String, CostRound.Idle> idle, ToDoubleFunction<CostRound.Idle> f) {
        Map<String, Double> out = new LinkedHashMap<>();
        idle.forEach((system, i) -> out.put(system, f.applyAsDouble(i) / i.seconds()));
        return out;
    }

    private static CostRound.Idle idleOf(CostRound.Result r, List<CostRound.Result> all) {
        if (r.idle() != null) {
            return r.idle();
        }
        for (CostRound.Result x : all) {
            if (x.idle() != null && x.system().equals(r.system()) && x.nodes() == r.nodes()) {
                return x.idle();
            }
        }
        return null;
    }

    static String byKind(CostUsage usage, long executions) {
        Map<Kind, Long> k = usage.callsByKind();
        double e = Math.max(1, executions);
        return String.format(
                Locale.ROOT,
                "%s / %s / %s / %s / %s / %s",
                fmt(k.get(Kind.SELECT) / e),
                fmt(k.get(Kind.INSERT) / e),
                fmt(k.get(Kind.UPDATE) / e),
                fmt(k.get(Kind.DELETE) / e),
                fmt(k.get(Kind.TRANSACTION) / e),
                fmt(k.get(Kind.OTHER) / e));
    }

    static String tableRows(TableRows rows, long executions) {
        double e = Math.max(1, executions);
        return String.format(
                Locale.ROOT,
                "%s / %s (%s) / %s",
                fmt(rows.inserted() / e),
                fmt(rows.updated() / e),
                fmt(rows.hotUpdated() / e),
                fmt(rows.deleted() / e));
    }

    private static Map<String, Double> perStatement(Map<String, CostRound.Result> r) {
        Map<String, Double> out = new LinkedHashMap<>();
        r.forEach((system, x) -> out.put(system, x.usage().rowsPerWrite()));
        return out;
    }

    private static double exec(CostRound.Result r) {
        return Math.max(1, r.executions());
    }

    /** {@code total(r) / executions}, per system. */
    private static Map<String, Double> values(Map<String, CostRound.Result> r, ToDoubleFunction<CostRound.Result> f) {
        Map<String, Double> out = new LinkedHashMap<>();
        r.forEach((system, x) -> out.put(system, f.applyAsDouble(x) / exec(x)));
        return out;
    }

    private static Map<String, String> cells(Map<String, CostRound.Result> r, Function<CostRound.Result, String> f) {
        Map<String, String> out = new LinkedHashMap<>();
        r.forEach((system, x) -> out.put(system, f.apply(x)));
        return out;
    }

    /**
     * A figure per execution: many are far below 1 (a statement shared by a thousand executions), so small ones keep
     * three significant digits; none above 1,000, one decimal above 10.
     */
    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "—";
        }
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        // 0.123, 0.0123, 0.00123 ...
        int decimals = Math.min(8, 2 - (int) Math.floor(Math.log10(a)));
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
