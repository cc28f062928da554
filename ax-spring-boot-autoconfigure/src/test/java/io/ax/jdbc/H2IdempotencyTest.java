package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2IdempotencyTest extends JdbcIdempotencyContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
