package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbActivityStoreTest extends JdbcActivityStoreContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
