package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.ax.test.jdbc.TestDatabase;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Each database's own driver, refusing a row for real, is recognised by its dialect exactly where Spring's
 * translation says {@link DuplicateKeyException}: the store's reactions to a duplicate did not change when the
 * dialects took over recognising it.
 */
class DuplicateKeysTest {

    /** A table of this test's own, so that runs beside other suites on the same servers never meet. */
    private static final String TABLE = "axdia_dupkey";

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aSecondRowWithTheSameKeyIsADuplicate(TestDatabase database) {
        onTable(database, (jdbc, dialect) -> {
            jdbc.update("INSERT INTO " + TABLE + " (k, v) VALUES (?, ?)", "a", "first");

            DataAccessException refused = catchThrowableOfType(
                    DataAccessException.class,
                    () -> jdbc.update("INSERT INTO " + TABLE + " (k, v) VALUES (?, ?)", "a", "second"));

            assertThat(refused).isInstanceOf(DuplicateKeyException.class);
            assertThat(dialect.isDuplicateKey(refused)).isTrue();
        });
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aDuplicateInABatchIsADuplicate(TestDatabase database) {
        onTable(database, (jdbc, dialect) -> {
            jdbc.update("INSERT INTO " + TABLE + " (k, v) VALUES (?, ?)", "b", "first");
            List<Object[]> rows =
                    List.of(new Object[] {"c", "new"}, new Object[] {"b", "again"}, new Object[] {"d", "new"});

            DataAccessException refused = catchThrowableOfType(
                    DataAccessException.class,
                    () -> jdbc.batchUpdate("INSERT INTO " + TABLE + " (k, v) VALUES (?, ?)", rows));

            assertThat(refused).isInstanceOf(DuplicateKeyException.class);
            assertThat(dialect.isDuplicateKey(refused)).isTrue();
        });
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aMissingValueIsNotADuplicate(TestDatabase database) {
        onTable(database, (jdbc, dialect) -> {
            DataAccessException refused = catchThrowableOfType(
                    DataAccessException.class,
                    () -> jdbc.update("INSERT INTO " + TABLE + " (k, v) VALUES (?, NULL)", "e"));

            assertThat(refused).isNotInstanceOf(DuplicateKeyException.class);
            assertThat(dialect.isDuplicateKey(refused)).isFalse();
        });
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void anInsertUnlessHeldLeavesAHeldKeyOutAndTheTransactionGoesOn(TestDatabase database) {
        onTable(database, (jdbc, dialect) -> {
            String insert = dialect.insertUnlessHeld(TABLE, List.of("k", "v"), List.of("?", "?"), List.of("k"));
            new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()))
                    .executeWithoutResult(status -> {
                        assertThat(jdbc.update(insert, "f", "first")).isOne();
                        int added;
                        try {
                            added = jdbc.update(insert, "f", "second");
                        } catch (DataAccessException e) { // where the database cannot leave it out (H2)
                            assertThat(dialect.isDuplicateKey(e)).isTrue();
                            added = 0;
                        }
                        assertThat(added).isZero();
                        assertThat(jdbc.update(insert, "g", "after")).isOne();
                    });
            assertThat(jdbc.queryForList("SELECT v FROM " + TABLE + " ORDER BY k", String.class))
                    .containsExactly("first", "after");
        });
    }

    private interface TableTest {
        void run(JdbcTemplate jdbc, Dialect dialect);
    }

    private static void onTable(TestDatabase database, TableTest test) {
        DataSource dataSource = database.dataSource();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("DROP TABLE IF EXISTS " + TABLE);
        jdbc.execute("CREATE TABLE " + TABLE + " (k VARCHAR(20) NOT NULL PRIMARY KEY, v VARCHAR(20) NOT NULL)");
        try {
            test.run(jdbc, Vendor.dialectOf(dataSource));
        } finally {
            jdbc.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }
}
