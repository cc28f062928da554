package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresRetentionWhileBusyTest extends JdbcRetentionWhileBusyContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
