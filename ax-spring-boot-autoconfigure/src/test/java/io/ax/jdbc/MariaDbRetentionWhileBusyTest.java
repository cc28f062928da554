package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbRetentionWhileBusyTest extends JdbcRetentionWhileBusyContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
