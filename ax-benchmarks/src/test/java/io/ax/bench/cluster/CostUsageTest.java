package io.ax.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.bench.cluster.CostCounters.Query;
import io.ax.bench.cluster.CostCounters.TableRows;
import io.ax.bench.cluster.CostUsage.Kind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostUsageTest {

    private static CostCounters counters(Map<Long, Query> statements, long lsn, long commits, TableRows instance) {
        return new CostCounters(statements, lsn, commits, Map.of("ax_instance", instance));
    }

    @Test
    void aWalPositionIsReadAsPostgreSqlPrintsIt() {
        assertThat(CostCounters.lsn("0/0")).isZero();
        assertThat(CostCounters.lsn("16/B374D848")).isEqualTo(0x16_B374_D848L);
        // across the 4 GiB boundary, as pg_wal_lsn_diff('1/0', '0/FFFFFFFF') = 1
        assertThat(CostCounters.lsn("1/0") - CostCounters.lsn("0/FFFFFFFF")).isEqualTo(1);
        assertThatThrownBy(() -> CostCounters.lsn("16B374D848")).hasMessageContaining("16B374D848");
    }

    @Test
    void theUsageIsWhatGrewBetweenTwoReadings() {
        CostCounters before = counters(
                Map.of(1L, new Query(10, 10, "UPDATE ax_instance SET state = $1"), 2L, new Query(5, 0, "BEGIN")),
                1_000,
                7,
                new TableRows(100, 200, 50, 0));
        CostCounters after = counters(
                Map.of(
                        1L, new Query(30, 4_010, "UPDATE ax_instance SET state = $1"),
                        2L, new Query(5, 0, "BEGIN"),
                        3L, new Query(4, 2_000, "INSERT INTO ax_audit (id) SELECT * FROM unnest($1)")),
                9_000,
                17,
                new TableRows(2_100, 4_200, 50, 0));

        CostUsage u = CostUsage.between(before, after);

        // BEGIN did not run in between; the INSERT first ran in between and counts whole
        assertThat(u.statements()).extracting(CostUsage.Use::calls).containsExactly(20L, 4L);
        assertThat(u.calls()).isEqualTo(24);
        assertThat(u.walBytes()).isEqualTo(8_000);
        assertThat(u.commits()).isEqualTo(10);
        assertThat(u.table("ax_instance")).isEqualTo(new TableRows(2_000, 4_000, 0, 0));
        assertThat(u.table("ax_instance").versions()).isEqualTo(6_000);
        assertThat(u.table("no_such_table")).isEqualTo(TableRows.NONE);
        // 4,000 rows in 20 updates and 2,000 in 4 inserts
        assertThat(u.rowsPerWrite()).isEqualTo(6_000 / 24.0);
    }

    @Test
    void tablesAndTransactionsMayComeFromALaterReadingThanStatements() {
        CostCounters from = counters(Map.of(), 0, 0, TableRows.NONE);
        CostCounters done = counters(Map.of(1L, new Query(3, 3, "SELECT 1")), 500, 2, new TableRows(1, 0, 0, 0));
        CostCounters closed = counters(Map.of(1L, new Query(9, 9, "SELECT 1")), 900, 5, new TableRows(10, 20, 5, 0));

        CostUsage u = CostUsage.between(from, done, closed);

        assertThat(u.calls()).isEqualTo(3);
        assertThat(u.walBytes()).isEqualTo(500);
        assertThat(u.commits()).isEqualTo(5);
        assertThat(u.allTables()).isEqualTo(new TableRows(10, 20, 5, 0));
    }

    @Test
    void statementsAreToldApartByWhatTheyDo() {
        assertThat(Kind.of("BEGIN")).isEqualTo(Kind.TRANSACTION);
        assertThat(Kind.of("commit")).isEqualTo(Kind.TRANSACTION);
        assertThat(Kind.of("  SELECT pg_notify($1, s) FROM unnest($2::varchar[]) AS s"))
                .isEqualTo(Kind.SELECT);
        assertThat(Kind.of("/* a comment */ UPDATE t SET a = $1")).isEqualTo(Kind.UPDATE);
        assertThat(Kind.of("-- a comment\nDELETE FROM t")).isEqualTo(Kind.DELETE);
        assertThat(Kind.of("INSERT INTO t (a) VALUES ($1)")).isEqualTo(Kind.INSERT);
        assertThat(Kind.of("WITH u AS (SELECT 1) UPDATE t SET a = 1 FROM u")).isEqualTo(Kind.UPDATE);
        assertThat(Kind.of("WITH u AS (SELECT 1) SELECT * FROM u")).isEqualTo(Kind.SELECT);
        assertThat(Kind.of("LISTEN ax_wake")).isEqualTo(Kind.OTHER);
        assertThat(Kind.of("/* never closed")).isEqualTo(Kind.OTHER);
    }

    @Test
    void everyKindIsCountedEvenWhenNoneRan() {
        CostUsage u = new CostUsage(
                List.of(new CostUsage.Use("BEGIN", 3, 0), new CostUsage.Use("SELECT 1", 2, 2)), 0, 0, Map.of());

        assertThat(u.callsByKind())
                .containsEntry(Kind.TRANSACTION, 3L)
                .containsEntry(Kind.SELECT, 2L)
                .containsEntry(Kind.DELETE, 0L)
                .hasSize(Kind.values().length);
        assertThat(u.rowsPerWrite()).isNaN();
    }

    @Test
    void aShortenedStatementShowsItsTablesBeforeItsColumns() {
        assertThat(CostUsage.shorten("SELECT id,\n   task_name, state FROM ax_instance WHERE id = $1", 200))
                .isEqualTo("SELECT ... FROM ax_instance WHERE id = $1");
        assertThat(CostUsage.shorten("INSERT INTO ax_audit (a, b, c) SELECT * FROM unnest($1)", 200))
                .isEqualTo("INSERT INTO ax_audit (...) SELECT * FROM unnest($1)");
        assertThat(CostUsage.shorten("SELECT pg_notify($1, s) FROM unnest($2)", 200))
                .isEqualTo("SELECT pg_notify($1, s) FROM unnest($2)");
        assertThat(CostUsage.shorten("UPDATE ax_node SET heartbeat_us = $1 WHERE id = $2", 20))
                .isEqualTo("UPDATE ax_node SE...")
                .hasSize(20);
    }

    @Test
    void smallFiguresPerExecutionKeepThreeSignificantDigits() {
        assertThat(CostTable.fmt(0)).isEqualTo("0");
        assertThat(CostTable.fmt(0.0391)).isEqualTo("0.0391");
        assertThat(CostTable.fmt(0.000123)).isEqualTo("0.000123");
        assertThat(CostTable.fmt(0.5)).isEqualTo("0.500");
        assertThat(CostTable.fmt(3.001)).isEqualTo("3.00");
        assertThat(CostTable.fmt(42.25)).isEqualTo("42.3");
        assertThat(CostTable.fmt(4_322.4)).isEqualTo("4,322");
        assertThat(CostTable.fmt(Double.NaN)).isEqualTo("—");
    }

    @Test
    void statementsByKindAreShownPerExecution() {
        CostUsage u = new CostUsage(
                List.of(
                        new CostUsage.Use("SELECT 1", 50, 50),
                        new CostUsage.Use("INSERT INTO t (a) VALUES ($1)", 10, 1_000),
                        new CostUsage.Use("COMMIT", 20, 0)),
                0,
                0,
                Map.of());

        assertThat(CostTable.byKind(u, 1_000)).isEqualTo("0.0500 / 0.0100 / 0 / 0 / 0.0200 / 0");
        assertThat(CostTable.tableRows(new TableRows(1_000, 2_667, 0, 0), 1_000))
                .isEqualTo("1.00 / 2.67 (0) / 0");
    }

    @Test
    void aRecurringWindowStartsAtHalfPastASecond() {
        assertThat(CostRound.nanosToHalfPast(Instant.ofEpochSecond(10, 0))).isEqualTo(500_000_000L);
        assertThat(CostRound.nanosToHalfPast(Instant.ofEpochSecond(10, 499_999_999)))
                .isEqualTo(1);
        assertThat(CostRound.nanosToHalfPast(Instant.ofEpochSecond(10, 500_000_000)))
                .isEqualTo(1_000_000_000L);
        assertThat(CostRound.nanosToHalfPast(Instant.ofEpochSecond(10, 900_000_000)))
                .isEqualTo(600_000_000L);
    }
}
