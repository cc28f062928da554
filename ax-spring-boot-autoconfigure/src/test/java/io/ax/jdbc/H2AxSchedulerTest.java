package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2AxSchedulerTest extends JdbcAxSchedulerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
