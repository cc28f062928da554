package io.ax.jdbc;

import io.ax.core.store.InstanceStore;
import io.ax.test.engine.RetentionWhileBusyContract;
import io.ax.test.jdbc.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** Runs the retention-while-busy contract on one database, on tables of its own created by AX's migrations. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcRetentionWhileBusyContract extends RetentionWhileBusyContract {

    private static final String PREFIX = "axret_";

    abstract TestDatabase database();

    @BeforeAll
    void createSchema() {
        database().migrate(PREFIX);
    }

    @Override
    protected InstanceStore newStore() {
        return database().emptyStore(PREFIX);
    }
}
