package io.ax.bench.cluster;

import static io.ax.bench.cluster.CostTable.fmt;
import static io.ax.bench.cluster.CostTable.name;
import static io.ax.bench.cluster.CostTable.nodes;

import io.ax.bench.LoadAverage;
import io.ax.bench.ResultTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/** The notes under the {@code cost} scenario's table: how it measured, where, and what each round ran most. */
final class CostNotes {

    /** How many statements each round lists. */
    private static final int TOP = 6;

    private CostNotes() {}

    static void add(ResultTable t, CostSettings s, List<CostRound.Result> results, CostTable.Machine m, Path logDir) {
        t.note(String.format(
                Locale.ROOT,
                "Every figure is per execution finished in the measured part, from differences of the server's"
                        + " counters: statements = calls in pg_stat_statements of the measured database (the"
                        + " probe's own left out; BEGIN and COMMIT are statements too); transactions ="
                        + " pg_stat_database.xact_commit; rows = pg_stat_user_tables n_tup_ins/upd/hot_upd/del of"
                        + " the round's schema; WAL = pg_wal_lsn_diff of pg_current_wal_lsn(); PostgreSQL CPU ="
                        + " utime + stime from /proc of %s. Background (heartbeats, polls, the leader's loads) is"
                        + " in every figure: the row \"of the statements, the idle background meanwhile\" is the"
                        + " idle window's rate times the measured time (recurring: the idle window of the burst"
                        + " round with as many nodes).",
                m.postmaster() > 0
                        ? "the measured server only (its postmaster, pid " + m.postmaster() + ", and its children)"
                        : "every process named postgres on this machine (the server's postmaster was not found)"));
        t.note(String.format(
                Locale.ROOT,
                "Burst: %,d one-shot no-op executions (AX: SCHEDULED, origin DELAYED, written with"
                        + " JdbcInstanceStore.schedule with their CREATED and SCHEDULED audit rows, as the cluster"
                        + " scenario writes them; db-scheduler: scheduleBatch) written by the benchmark JVM a few"
                        + " seconds before they are all due, then ANALYZE, after a warm-up burst of %,d and an idle"
                        + " window of %d s; measured from the start of the write until every one is done in the"
                        + " database (AX: SUCCESS; db-scheduler: row deleted), the write included (its share in the"
                        + " last row of the block, ANALYZE in it). Transactions and table rows of a burst are read"
                        + " after the nodes stopped and every connection of theirs and of the writer closed: a"
                        + " backend reports them with a delay, at the latest when it exits, so these include the"
                        + " nodes' stop.",
                s.burstTasks(),
                s.burstWarmup(),
                s.idleSeconds()));
        t.note(String.format(
                Locale.ROOT,
                "Recurring: %,d tasks due every second (AX: one shared cron trigger `* * * * * ?`, PERSISTENT;"
                        + " db-scheduler: one RecurringTask with a row per task), a window of %d s after %d s of"
                        + " warm-up; executions = AX's new SUCCESS rows (db-scheduler: its handlers' runs) in the"
                        + " window. Table rows and transactions are read at both ends of the window, each with the"
                        + " backends' reporting delay (about a second under load), which a steady load cancels.",
                s.rate(),
                s.seconds(),
                s.warmup()));
        t.note(String.format(
                Locale.ROOT,
                "Nodes: JVMs of their own (%s), %d worker threads, poll interval %d ms (as the cluster scenario;"
                        + " AX's default is 500 ms), AX's other cluster timings at their defaults; PostgreSQL %s."
                        + " Counts do not depend on the machine's speed; batch sizes (rows per statement) and the CPU"
                        + " figures do. Load average (1 min) %.2f before, %.2f after%s.",
                String.join(" ", s.jvmArgs()),
                s.threads(),
                s.pollMs(),
                m.serverVersion(),
                m.loadBefore(),
                m.loadAfter(),
                LoadAverage.niceness() == 0 ? "" : "; nice " + LoadAverage.niceness()));
        for (CostRound.Result r : results) {
            t.note(roundNote(s, r));
        }
        t.note("Node JVM logs: " + logDir.toAbsolutePath());
    }

    /** A round's most frequent statements, how its executions spread over the nodes, and what went wrong. */
    private static String roundNote(CostSettings s, CostRound.Result r) {
        StringJoiner top = new StringJoiner("; ");
        for (CostUsage.Use u : r.usage().top(TOP)) {
            top.add(String.format(
                    Locale.ROOT,
                    "%s x %s rows/call `%s`",
                    fmt(u.calls() / exec(r)),
                    fmt(u.calls() == 0 ? Double.NaN : (double) u.rows() / u.calls()),
                    CostUsage.shorten(u.text(), 110)));
        }
        StringBuilder out = new StringBuilder(String.format(
                Locale.ROOT,
                "%s, %s, %s: top statements per execution: %s. Row versions per execution by table: %s."
                        + " Executions per node: %s.",
                r.system(),
                name(s, r.workload()),
                nodes(r.nodes()),
                top,
                byTable(r),
                r.perNode()));
        StringJoiner calls = new StringJoiner("; ");
        r.storeCalls().forEach((node, c) -> {
            if (!c.equals("-") && !c.isEmpty()) {
                calls.add(node + ": " + c);
            }
        });
        if (calls.length() > 0) {
            out.append(" Store calls/rows/refused per node: ").append(calls).append('.');
        }
        if (!r.killedAtStop().isEmpty()) {
            out.append(" Killed at stop: ").append(r.killedAtStop()).append('.');
        }
        r.problems()
                .forEach((message, count) ->
                        out.append(String.format(Locale.ROOT, " Node logs: %d x %s.", count, message)));
        return out.toString();
    }

    /** The tables written to, most row versions first: {@code name versions (deletes)} per execution. */
    static String byTable(CostRound.Result r) {
        StringJoiner out = new StringJoiner(", ");
        r.usage().tables().entrySet().stream()
                .filter(e -> e.getValue().versions() + e.getValue().deleted() > 0)
                .sorted((a, b) ->
                        Long.compare(b.getValue().versions(), a.getValue().versions()))
                .forEach(e -> out.add(String.format(
                        Locale.ROOT,
                        "%s %s%s",
                        e.getKey(),
                        fmt(e.getValue().versions() / exec(r)),
                        e.getValue().deleted() == 0
                                ? ""
                                : " (" + fmt(e.getValue().deleted() / exec(r)) + " deleted)")));
        return out.length() == 0 ? "none" : out.toString();
    }

    private static double exec(CostRound.Result r) {
        return Math.max(1, r.executions());
    }
}
