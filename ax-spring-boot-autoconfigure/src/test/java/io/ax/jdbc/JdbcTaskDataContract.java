package io.ax.jdbc;

import io.ax.core.store.TaskDataStore;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.TaskDataContract;
import org.junit.jupiter.api.BeforeEach;

/** The task data contract on a database's table (prefix {@code axtd_}); one subclass per database. */
abstract class JdbcTaskDataContract extends TaskDataContract {

    static final String PREFIX = "axtd_";

    private TaskDataStore taskData;

    abstract TestDatabase database();

    @BeforeEach
    void tables() {
        TestDatabase db = database();
        db.dataSource(); // skips (or fails) here when the database does not answer
        if (!JdbcSchema.exists(db.dataSource(), PREFIX)) {
            db.migrate(PREFIX);
        } else {
            JdbcSchema.migrate(db.dataSource(), PREFIX);
        }
        taskData = new JdbcInstanceStore(db.dataSource(), PREFIX).taskData().orElseThrow();
    }

    @Override
    protected TaskDataStore taskData() {
        return taskData;
    }
}
