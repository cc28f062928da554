package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbInstanceStoreTest extends JdbcInstanceStoreContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
