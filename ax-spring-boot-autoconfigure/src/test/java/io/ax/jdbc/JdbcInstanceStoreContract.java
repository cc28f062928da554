package io.ax.jdbc;

import io.ax.core.store.InstanceStore;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.InstanceStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** Runs the store contract on one database, on tables created by AX's own migrations. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcInstanceStoreContract extends InstanceStoreContract {

    /**
     * {@code axt_}, unless {@code -Dax.test.store-prefix} names another: two runs of the suite against the same
     * server (two developers, or a developer beside CI) then keep to their own tables.
     */
    private static final String PREFIX = System.getProperty("ax.test.store-prefix", "axt_");

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
