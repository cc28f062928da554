package io.ax.jdbc;

import java.sql.Types;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** One statement run for many rows as JDBC batches of at most {@link #SIZE} rows each. Thread-safe. */
final class JdbcBatches {

    /** Rows per batch, and ids per {@code IN} list: enough to save round trips, few enough for every driver. */
    static final int SIZE = 500;

    private final JdbcTemplate jdbc;

    JdbcBatches(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Runs {@code statement} once per row, the SQL type of each column told from the first non-null value in it.
     *
     * @return per row, the count the driver reports
     */
    int[] run(String statement, List<Object[]> rows) {
        return run(statement, rows, null);
    }

    /**
     * @param types the SQL type of each column, or null to tell them from the values
     * @return per row, the count the driver reports
     */
    int[] run(String statement, List<Object[]> rows, int[] types) {
        int[] all = new int[rows.size()];
        for (int from = 0; from < rows.size(); from += SIZE) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + SIZE));
            int[] counts = jdbc.batchUpdate(statement, chunk, types != null ? types : argTypes(chunk));
            System.arraycopy(counts, 0, all, from, counts.length);
        }
        return all;
    }

    /** Declares the SQL type of each column, so that null values bind on every driver. */
    private static int[] argTypes(List<Object[]> chunk) {
        if (chunk.isEmpty()) {
            return new int[0];
        }
        Object[] first = chunk.get(0);
        int[] types = new int[first.length];
        for (int i = 0; i < first.length; i++) {
            types[i] = typeOf(chunk, i);
        }
        return types;
    }

    private static int typeOf(List<Object[]> chunk, int column) {
        for (Object[] row : chunk) {
            Object v = row[column];
            if (v instanceof Long) {
                return Types.BIGINT;
            }
            if (v instanceof Integer) {
                return Types.INTEGER;
            }
            if (v instanceof Boolean) {
                return Types.BOOLEAN;
            }
            if (v != null) {
                return Types.VARCHAR;
            }
        }
        return Types.VARCHAR;
    }
}
