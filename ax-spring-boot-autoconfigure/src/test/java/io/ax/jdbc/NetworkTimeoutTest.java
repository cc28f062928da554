package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.test.jdbc.TestDatabase;
import io.ax.test.net.FaultProxy;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A network that drops packets without a word (a proxy that blackholes the traffic) under a connection that AX's
 * store holds already: the statement fails after the store's network timeout instead of waiting for an answer that
 * never comes (the drivers' default socket timeout is none). The application's own connections, and AX's writes
 * inside the application's transaction, are left as they are.
 */
class NetworkTimeoutTest {

    private static final String PREFIX = "axnet_";
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private FaultProxy proxy;
    private Connection connection;

    @AfterEach
    void close() throws Exception {
        if (proxy != null) {
            proxy.pass();
        }
        if (connection != null) {
            connection.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"POSTGRESQL", "MARIADB"})
    void aStatementOnABlackholedConnectionFailsAfterTheNetworkTimeout(TestDatabase database) throws Exception {
        SingleConnectionDataSource through = throughProxy(database);
        JdbcInstanceStore store = new JdbcInstanceStore(through, PREFIX, TIMEOUT);
        assertThat(store.find("no-such-instance")).isEmpty(); // the connection works

        proxy.blackhole();
        long from = System.nanoTime();
        CompletableFuture<Object> read = CompletableFuture.supplyAsync(() -> store.find("no-such-instance"));
        assertThatThrownBy(() -> read.get(TIMEOUT.multipliedBy(10).toMillis(), TimeUnit.MILLISECONDS))
                .as("a read on a blackholed connection")
                .hasCauseInstanceOf(DataAccessException.class);
        Duration took = Duration.ofNanos(System.nanoTime() - from);
        assertThat(took).isGreaterThanOrEqualTo(TIMEOUT.minusMillis(50));
    }

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"POSTGRESQL", "MARIADB"})
    void theStoreJoinsTheApplicationsTransactionAndLeavesItsConnectionsTimeoutAlone(TestDatabase database)
            throws Exception {
        SingleConnectionDataSource app = throughProxy(database);
        JdbcInstanceStore store = new JdbcInstanceStore(app, PREFIX, TIMEOUT);
        // the one connection, as the application sets it (the store's start borrowed it for a moment)
        connection.setNetworkTimeout(Runnable::run, 0);
        int before = connection.getNetworkTimeout();
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(app));
        Integer seenInside = tx.execute(status -> {
            store.find("no-such-instance"); // on the transaction's connection, not one of its own
            try {
                return new JdbcTemplate(app).execute((java.sql.Connection c) -> c.getNetworkTimeout());
            } finally {
                status.setRollbackOnly();
            }
        });
        assertThat(seenInside)
                .as("the application's connection keeps its timeout")
                .isEqualTo(before);
    }

    /** One connection through a proxy of its own, kept open: the pool's connection checked out when the net fails. */
    private SingleConnectionDataSource throughProxy(TestDatabase database) throws Exception {
        database.migrate(PREFIX); // skips (or fails, when required) without the service
        URI target = URI.create(database.url().substring("jdbc:".length()));
        proxy = FaultProxy.start(target.getHost(), target.getPort());
        String url = database.url().replace(":" + target.getPort() + "/", ":" + proxy.port() + "/");
        connection = DriverManager.getConnection(url, database.user(), database.password());
        return new SingleConnectionDataSource(connection, true);
    }
}
