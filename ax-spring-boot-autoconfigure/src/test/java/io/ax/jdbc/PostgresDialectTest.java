package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.UncategorizedSQLException;

class PostgresDialectTest {

    private final Dialect dialect = new PostgresDialect();

    @Test
    void aUniqueViolationIsADuplicateKeyBySqlStateAlone() {
        // PostgreSQL's driver leaves the error code 0 and says everything with the SQLState
        assertThat(dialect.isDuplicateKey(new SQLException("duplicate key value violates unique constraint", "23505")))
                .isTrue();
    }

    @Test
    void otherIntegrityViolationsAreNot() {
        assertThat(dialect.isDuplicateKey(new SQLException("null value in column", "23502")))
                .isFalse();
        assertThat(dialect.isDuplicateKey(new SQLException("violates foreign key constraint", "23503")))
                .isFalse();
        assertThat(dialect.isDuplicateKey(new SQLException("current transaction is aborted", "25P02")))
                .isFalse();
    }

    @Test
    void aDuplicateIsFoundWrappedOrAsTheNextExceptionOfABatch() {
        BatchUpdateException batch = new BatchUpdateException("Batch entry 3 was aborted", "23505", 0, new int[0]);
        assertThat(dialect.isDuplicateKey(new DataIntegrityViolationException("insert", batch)))
                .isTrue();

        BatchUpdateException vague = new BatchUpdateException("Batch entry 3 was aborted", null, 0, new int[0]);
        vague.setNextException(new SQLException("duplicate key value", "23505"));
        assertThat(dialect.isDuplicateKey(new UncategorizedSQLException("insert", "INSERT ...", vague)))
                .isTrue();
    }

    @Test
    void aFailureWithoutAnSqlExceptionIsNotADuplicate() {
        assertThat(dialect.isDuplicateKey(new IllegalStateException("23505"))).isFalse();
    }

    @Test
    void readsTheClockWhenTheStatementRunsNotWhenItsTransactionStarted() {
        assertThat(dialect.nowMicros()).contains("clock_timestamp()").doesNotContain("now()");
    }

    @Test
    void anUpsertUpdatesTheColumnsOutsideTheKey() {
        assertThat(dialect.upsert("t", java.util.List.of("k", "a", "b"), java.util.List.of("k")))
                .isEqualTo("INSERT INTO t (k, a, b) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET a = EXCLUDED.a,"
                        + " b = EXCLUDED.b");
    }
}
