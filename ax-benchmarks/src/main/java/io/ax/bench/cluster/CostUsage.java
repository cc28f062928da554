package io.ax.bench.cluster;

import io.ax.bench.cluster.CostCounters.Query;
import io.ax.bench.cluster.CostCounters.TableRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the database did between two readings of its counters: the statements that ran, the WAL written, the
 * transactions committed and the rows written per table. Immutable.
 *
 * @param statements each statement that ran at least once in between, with its calls and rows in between
 * @param walBytes WAL written
 * @param commits transactions committed
 * @param tables table name -> rows written to it in between
 */
record CostUsage(List<Use> statements, long walBytes, long commits, Map<String, TableRows> tables) {

    CostUsage {
        statements = List.copyOf(statements);
        tables = Map.copyOf(tables);
    }

    /** One statement's calls and rows in between two readings. */
    record Use(String text, long calls, long rows) {

        Kind kind() {
            return Kind.of(text);
        }
    }

    /** What a statement does, read from its text. */
    enum Kind {
        SELECT,
        INSERT,
        UPDATE,
        DELETE,
        /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE. */
        TRANSACTION,
        /** Everything else: LISTEN, SET, ANALYZE ... */
        OTHER;

        /** Whether it writes rows. */
        boolean writes() {
            return this == INSERT || this == UPDATE || this == DELETE;
        }

        static Kind of(String sql) {
            String s = withoutLeadingComments(sql).toLowerCase(Locale.ROOT);
            String first = s.split("[\\s(;]+", 2)[0];
            return switch (first) {
                case "select", "values", "table" -> SELECT;
                case "insert" -> INSERT;
                case "update" -> UPDATE;
                case "delete" -> DELETE;
                case "begin", "start", "commit", "end", "rollback", "savepoint", "release", "abort" -> TRANSACTION;
                case "with" -> ofWith(s);
                default -> OTHER;
            };
        }

        /** A statement with a CTE writes if any part of it does; the first write keyword names it. */
        private static Kind ofWith(String s) {
            int insert = s.indexOf("insert into ");
            int update = s.indexOf("update ");
            int delete = s.indexOf("delete from ");
            int first = Integer.MAX_VALUE;
            Kind kind = SELECT;
            if (insert >= 0 && insert < first) {
                first = insert;
                kind = INSERT;
            }
            if (update >= 0 && update < first) {
                first = update;
                kind = UPDATE;
            }
            if (delete >= 0 && delete < first) {
                kind = DELETE;
            }
            return kind;
        }

        private static String withoutLeadingComments(String sql) {
            String s = sql.strip();
            while (s.startsWith("/*") || s.startsWith("--")) {
                int end = s.startsWith("/*") ? s.indexOf("*/") + 2 : s.indexOf('\n') + 1;
                if (end <= 0 || end > s.length()) { // an unclosed comment: nothing after it
                    return "";
                }
                s = s.substring(end).strip();
            }
            return s;
        }
    }

    /** What happened between {@code from} and {@code to}. */
    static CostUsage between(CostCounters from, CostCounters to) {
        return between(from, to, to);
    }

    /**
     * Statements and WAL between {@code from} and {@code to}, transactions and table rows between {@code from} and
     * {@code tablesTo}: the latter are flushed by each backend with a delay, and a reading taken once the writers'
     * connections closed holds them all.
     */
    static CostUsage between(CostCounters from, CostCounters to, CostCounters tablesTo) {
        List<Use> uses = new ArrayList<>();
        to.statements().forEach((id, now) -> {
            Query then = from.statements().get(id);
            long calls = now.calls() - (then == null ? 0 : then.calls());
            long rows = now.rows() - (then == null ? 0 : then.rows());
            if (calls > 0) {
                uses.add(new Use(now.text(), calls, rows));
            }
        });
        uses.sort(Comparator.comparingLong(Use::calls).reversed().thenComparing(Use::text));
        Map<String, TableRows> tables = new TreeMap<>();
        tablesTo.tables()
                .forEach((name, now) -> tables.put(name, now.minus(from.tables().getOrDefault(name, TableRows.NONE))));
        return new CostUsage(uses, to.walLsn() - from.walLsn(), tablesTo.commits() - from.commits(), tables);
    }

    /** Statements run, all kinds. */
    long calls() {
        return statements.stream().mapToLong(Use::calls).sum();
    }

    /** Statements run, per kind (every kind present, 0 for none). */
    Map<Kind, Long> callsByKind() {
        Map<Kind, Long> out = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            out.put(k, 0L);
        }
        statements.forEach(u -> out.merge(u.kind(), u.calls(), Long::sum));
        return out;
    }

    /** Rows written per INSERT, UPDATE or DELETE statement (how many rows one statement carries); NaN for none. */
    double rowsPerWrite() {
        long calls = 0;
        long rows = 0;
        for (Use u : statements) {
            if (u.kind().writes()) {
                calls += u.calls();
                rows += u.rows();
            }
        }
        return calls == 0 ? Double.NaN : (double) rows / calls;
    }

    /** The {@code n} statements that ran most often, most first. */
    List<Use> top(int n) {
        return statements.subList(0, Math.min(n, statements.size()));
    }

    /** Rows written to {@code table}; none if it is not in the measured schema. */
    TableRows table(String table) {
        return tables.getOrDefault(table, TableRows.NONE);
    }

    /** Rows written to every table of the measured schema. */
    TableRows allTables() {
        return tables.values().stream().reduce(TableRows.NONE, TableRows::plus);
    }

    /**
     * A statement's text on one line, cut to {@code max} characters: whitespace runs become one space, the column
     * lists of a SELECT and of an INSERT become "...", so that what tells statements apart (tables, conditions)
     * comes first, and a cut text ends with "...".
     */
    static String shorten(String sql, int max) {
        String s = sql.strip().replaceAll("\\s+", " ");
        s = s.replaceFirst("(?i)^SELECT (?!pg_)(.+?) FROM ", "SELECT ... FROM ");
        s = s.replaceFirst("(?i)^INSERT INTO (\\S+) \\([^)]*\\)", "INSERT INTO $1 (...)");
        return s.length() <= max ? s : s.substring(0, Math.max(0, max - 3)) + "...";
    }
}
