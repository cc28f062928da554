package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresClusterSpiTest extends JdbcClusterSpiContract {

    PostgresClusterSpiTest() {
        super(TestDatabase.POSTGRESQL, "SET TIME ZONE 'Pacific/Kiritimati'");
    }
}
