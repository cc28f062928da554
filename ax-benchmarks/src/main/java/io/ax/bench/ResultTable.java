package io.ax.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A table of one scenario: one row per metric, one column per system (AX first), and per peer the ratio that says
 * how many times better AX is on that metric (above 1: AX wins; below 1: AX loses). A table that compares AX with
 * itself in other set-ups names its first column's subject instead of "AX".
 */
public final class ResultTable {

    /** Whether bigger numbers are better (throughput) or worse (latency, bytes). */
    public enum Better {
        HIGHER,
        LOWER
    }

    /** {@code text} holds cells already written (several figures in one cell); null for a numeric row. */
    private record Row(
            String metric, String unit, Better better, Map<String, Double> values, Map<String, String> text) {}

    private final String title;
    private final List<String> systems;
    /** What the ratios speak of: "AX", or the first column of a table that compares set-ups. */
    private final String subject;

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    /** Whether the ratio columns are printed; off for a table whose columns are set-ups, not rivals. */
    private boolean ratios = true;

    /** @param systems column names; the first is AX, the others its peers */
    public ResultTable(String title, List<String> systems) {
        this(title, systems, "AX");
    }

    /**
     * @param systems column names; the first is the one compared with the others
     * @param subject how the ratio columns name the first column ({@code "<subject> vs <peer>"}, {@code "(<subject>
     *     loses)"})
     */
    public ResultTable(String title, List<String> systems, String subject) {
        this.title = title;
        this.systems = List.copyOf(systems);
        this.subject = subject;
    }

    /** Adds a metric; {@code values} per system name, missing or NaN for "not measured". */
    public ResultTable row(String metric, String unit, Better better, Map<String, Double> values) {
        rows.add(new Row(metric, unit, better, new LinkedHashMap<>(values), null));
        return this;
    }

    /** Adds a row of cells written by the caller, e.g. {@code "12 / 40 / 3"}; it has no ratio. */
    public ResultTable text(String metric, String unit, Map<String, String> cells) {
        rows.add(new Row(metric, unit, Better.LOWER, Map.of(), new LinkedHashMap<>(cells)));
        return this;
    }

    /** A line printed under the table (how it was measured, what was left out). */
    public ResultTable note(String note) {
        notes.add(note);
        return this;
    }

    /**
     * A check the run failed (e.g. an instance that never ran): printed under the notes, and the runner exits with
     * status 1.
     */
    public ResultTable failure(String failure) {
        failures.add(failure);
        return this;
    }

    /** Whether some {@link #failure} was reported. */
    public boolean failed() {
        return !failures.isEmpty();
    }

    /**
     * Leaves out the ratio columns: for a table whose columns are set-ups measured side by side (databases, wake-up
     * kinds) rather than AX and its peers, where "how many times better" reads as a verdict nobody asked for.
     */
    public ResultTable withoutRatios() {
        ratios = false;
        return this;
    }

    /** The table as Markdown. */
    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("### ").append(title).append("\n\n");
        out.append("| metric |");
        systems.forEach(s -> out.append(' ').append(s).append(" |"));
        List<String> compared = ratios ? systems.subList(1, systems.size()) : List.of();
        for (String peer : compared) {
            out.append(' ').append(subject).append(" vs ").append(peer).append(" |");
        }
        out.append("\n|---|");
        out.append("---:|".repeat(systems.size() + compared.size()));
        out.append('\n');
        String ax = systems.get(0);
        for (Row row : rows) {
            out.append("| ")
                    .append(row.metric())
                    .append(" (")
                    .append(row.unit())
                    .append(") |");
            for (String s : systems) {
                String cell = row.text() != null
                        ? row.text().getOrDefault(s, "—")
                        : format(row.values().get(s));
                out.append(' ').append(cell).append(" |");
            }
            for (String peer : compared) {
                String ratio = row.text() != null
                        ? "—"
                        : ratio(row, row.values().get(ax), row.values().get(peer), subject);
                out.append(' ').append(ratio).append(" |");
            }
            out.append('\n');
        }
        if (!notes.isEmpty()) {
            out.append('\n');
            notes.forEach(n -> out.append("- ").append(n).append('\n'));
        }
        if (!failures.isEmpty()) {
            out.append('\n');
            failures.forEach(f -> out.append("- **FAILED**: ").append(f).append('\n'));
        }
        return out.toString();
    }

    private static String ratio(Row row, Double ax, Double peer, String subject) {
        if (ax == null || peer == null || ax.isNaN() || peer.isNaN() || ax == 0 || peer == 0) {
            return "—";
        }
        double r = row.better() == Better.HIGHER ? ax / peer : peer / ax;
        return String.format(Locale.ROOT, "%.2fx%s", r, r < 0.995 ? " (" + subject + " loses)" : "");
    }

    static String format(Double v) {
        if (v == null || v.isNaN()) {
            return "—";
        }
        double a = Math.abs(v);
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%,.2fM", v / 1e6);
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
