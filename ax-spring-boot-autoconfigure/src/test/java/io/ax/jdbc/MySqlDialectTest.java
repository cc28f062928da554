package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;

class MySqlDialectTest {

    private final Dialect dialect = new MySqlDialect();

    @Test
    void aDuplicateEntryIsADuplicateKeyByItsErrorCode() {
        assertThat(dialect.isDuplicateKey(new SQLIntegrityConstraintViolationException(
                        "Duplicate entry 'job-2026' for key 'uq'", "23000", 1062)))
                .isTrue();
    }

    @Test
    void theSharedSqlStateOfIntegrityViolationsIsNotEnough() {
        // 23000 is every integrity violation on MySQL and MariaDB: here, a null in a NOT NULL column
        assertThat(dialect.isDuplicateKey(
                        new SQLIntegrityConstraintViolationException("Column 'node' cannot be null", "23000", 1048)))
                .isFalse();
        assertThat(dialect.isDuplicateKey(new SQLException("Deadlock found", "40001", 1213)))
                .isFalse();
    }

    @Test
    void aDuplicateIsFoundBehindTheBatchThatMetIt() {
        SQLException cause = new SQLIntegrityConstraintViolationException("Duplicate entry", "23000", 1062);
        BatchUpdateException batch = new BatchUpdateException("batch failed", null, 0, new int[0], cause);

        assertThat(dialect.isDuplicateKey(new DataIntegrityViolationException("batch", batch)))
                .isTrue();
    }

    @Test
    void theDueRangeNamesItsIndex() {
        assertThat(dialect.dueRange("ax_")).isEqualTo("ax_instance FORCE INDEX (ax_instance_due)");
    }

    @Test
    void anUpsertUpdatesTheColumnsOutsideTheKey() {
        assertThat(dialect.upsert("t", java.util.List.of("k", "a", "b"), java.util.List.of("k")))
                .isEqualTo(
                        "INSERT INTO t (k, a, b) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE a = VALUES(a), b = VALUES(b)");
    }

    @Test
    void readsTheClockInUtc() {
        assertThat(dialect.nowMicros()).contains("UTC_TIMESTAMP(6)");
    }
}
