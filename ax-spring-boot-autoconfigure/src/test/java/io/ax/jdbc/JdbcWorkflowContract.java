package io.ax.jdbc;

import io.ax.core.store.InstanceStore;
import io.ax.test.engine.WorkflowContract;
import io.ax.test.jdbc.TestDatabase;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Runs the workflow contract on one database, on tables created by AX's own migrations; two engines on the same
 * tables make a cluster of two nodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcWorkflowContract extends WorkflowContract {

    private static final String PREFIX = "axwf_";

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
    protected Optional<InstanceStore> sameStoreAgain() {
        return Optional.of(new JdbcInstanceStore(database().dataSource(), PREFIX));
    }
}
