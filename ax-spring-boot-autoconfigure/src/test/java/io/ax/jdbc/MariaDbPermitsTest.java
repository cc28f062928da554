package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbPermitsTest extends JdbcPermitsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
