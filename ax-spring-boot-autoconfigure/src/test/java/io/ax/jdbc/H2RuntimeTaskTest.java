package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2RuntimeTaskTest extends JdbcRuntimeTaskContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
