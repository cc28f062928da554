package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2PermitsTest extends JdbcPermitsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
