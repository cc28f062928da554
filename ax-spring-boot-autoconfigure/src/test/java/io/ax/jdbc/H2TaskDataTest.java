package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2TaskDataTest extends JdbcTaskDataContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
