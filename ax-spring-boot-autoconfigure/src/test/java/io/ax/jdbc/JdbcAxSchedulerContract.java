package io.ax.jdbc;

import io.ax.core.store.InstanceStore;
import io.ax.test.engine.AxSchedulerContract;
import io.ax.test.jdbc.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** Runs the scheduler contract on one database, on tables created by AX's own migrations. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcAxSchedulerContract extends AxSchedulerContract {

    private static final String PREFIX = "axsch_";

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
