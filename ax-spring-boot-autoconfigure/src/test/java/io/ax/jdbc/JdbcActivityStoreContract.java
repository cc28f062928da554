package io.ax.jdbc;

import io.ax.core.store.ActivityStore;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.ActivityStoreContract;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.jdbc.core.JdbcTemplate;

/** The activity rollup's contract on a database's table (prefix {@code axact_}); one subclass per database. */
abstract class JdbcActivityStoreContract extends ActivityStoreContract {

    static final String PREFIX = "axact_";

    private ActivityStore activity;

    abstract TestDatabase database();

    @BeforeEach
    void emptyTable() {
        TestDatabase db = database();
        db.dataSource(); // skips (or fails) here when the database does not answer
        if (!JdbcSchema.exists(db.dataSource(), PREFIX)) {
            db.migrate(PREFIX);
        } else {
            JdbcSchema.migrate(db.dataSource(), PREFIX);
        }
        new JdbcTemplate(db.dataSource()).update("DELETE FROM " + PREFIX + "activity");
        activity = new JdbcInstanceStore(db.dataSource(), PREFIX).activity().orElseThrow();
    }

    @Override
    protected ActivityStore activity() {
        return activity;
    }
}
