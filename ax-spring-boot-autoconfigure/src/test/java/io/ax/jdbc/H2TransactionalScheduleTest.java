package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2TransactionalScheduleTest extends JdbcTransactionalScheduleContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
