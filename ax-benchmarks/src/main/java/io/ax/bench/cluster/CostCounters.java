package io.ax.bench.cluster;

import io.ax.bench.db.WalPosition;
import java.util.Map;

/**
 * What the database's cumulative counters said at one moment ({@link CostProbe#read}): the statements of the
 * measured database by {@code pg_stat_statements} query id, the WAL position, the committed transactions of the
 * database, and the rows written per table of the measured schema. Two readings make a {@link CostUsage}.
 *
 * @param statements query id -> its cumulative figures (the probe's own statements left out)
 * @param walLsn {@code pg_current_wal_lsn()} as a byte position
 * @param commits {@code pg_stat_database.xact_commit} of the measured database
 * @param tables table name -> its {@code pg_stat_user_tables} row counts
 */
record CostCounters(Map<Long, Query> statements, long walLsn, long commits, Map<String, TableRows> tables) {

    CostCounters {
        statements = Map.copyOf(statements);
        tables = Map.copyOf(tables);
    }

    /**
     * One statement's cumulative figures.
     *
     * @param calls times it ran ({@code calls})
     * @param rows rows it returned or wrote, over all its calls ({@code rows})
     * @param text its normalized text, parameters as {@code $1}
     */
    record Query(long calls, long rows, String text) {}

    /**
     * A table's row counts ({@code n_tup_ins}, {@code n_tup_upd}, {@code n_tup_hot_upd}, {@code n_tup_del}), or
     * their growth between two readings.
     */
    record TableRows(long inserted, long updated, long hotUpdated, long deleted) {

        static final TableRows NONE = new TableRows(0, 0, 0, 0);

        /** Row versions written: every insert and every update makes one. */
        long versions() {
            return inserted + updated;
        }

        TableRows minus(TableRows earlier) {
            return new TableRows(
                    inserted - earlier.inserted,
                    updated - earlier.updated,
                    hotUpdated - earlier.hotUpdated,
                    deleted - earlier.deleted);
        }

        TableRows plus(TableRows other) {
            return new TableRows(
                    inserted + other.inserted,
                    updated + other.updated,
                    hotUpdated + other.hotUpdated,
                    deleted + other.deleted);
        }
    }

    /**
     * A WAL position as PostgreSQL prints it ({@code 16/B374D848}: high and low 32 bits in hex) as a byte position,
     * so that two positions subtract to {@code pg_wal_lsn_diff}.
     */
    static long lsn(String text) {
        return WalPosition.parse(text);
    }
}
