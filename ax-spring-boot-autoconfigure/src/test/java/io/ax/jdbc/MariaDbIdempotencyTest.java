package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbIdempotencyTest extends JdbcIdempotencyContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
