package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2RetentionWhileBusyTest extends JdbcRetentionWhileBusyContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
