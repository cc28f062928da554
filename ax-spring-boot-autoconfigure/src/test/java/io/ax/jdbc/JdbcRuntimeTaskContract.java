package io.ax.jdbc;

import io.ax.core.store.InstanceStore;
import io.ax.test.engine.RuntimeTaskContract;
import io.ax.test.jdbc.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** Runs the runtime task contract on one database, on tables created by AX's own migrations. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcRuntimeTaskContract extends RuntimeTaskContract {

    private static final String PREFIX = "axwf_rt_";

    abstract TestDatabase database();

    @BeforeAll
    void createSchema() {
        database().migrate(PREFIX);
    }

    @Override
    protected InstanceStore newStore() {
        return database().emptyStore(PREFIX);
    }

    @Override
    protected InstanceStore sameStoreAgain() {
        return new JdbcInstanceStore(database().dataSource(), PREFIX);
    }
}
