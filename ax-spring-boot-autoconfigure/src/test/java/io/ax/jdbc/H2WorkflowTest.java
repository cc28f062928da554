package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2WorkflowTest extends JdbcWorkflowContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
