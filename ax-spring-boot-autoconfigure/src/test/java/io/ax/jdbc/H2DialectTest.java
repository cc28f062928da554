package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;

class H2DialectTest {

    private final Dialect dialect = new H2Dialect();

    @Test
    void aDuplicateKeyIsTheSqlStateH2AlsoUsesAsItsErrorCode() {
        assertThat(dialect.isDuplicateKey(new DataIntegrityViolationException(
                        "insert", new SQLException("Unique index or primary key violation", "23505", 23505))))
                .isTrue();
    }

    @Test
    void otherIntegrityViolationsAreNot() {
        assertThat(dialect.isDuplicateKey(new SQLException("NULL not allowed for column", "23502", 23502)))
                .isFalse();
        assertThat(dialect.isDuplicateKey(new SQLException("Referential integrity constraint", "23506", 23506)))
                .isFalse();
    }

    @Test
    void theDueRangeIsThePlainTable() {
        assertThat(dialect.dueRange("ax_")).isEqualTo("ax_instance");
    }

    @Test
    void anUpsertIsAMergeOnTheKey() {
        assertThat(dialect.upsert("t", java.util.List.of("k", "a", "b"), java.util.List.of("k")))
                .isEqualTo("MERGE INTO t (k, a, b) KEY (k) VALUES (?, ?, ?)");
    }
}
