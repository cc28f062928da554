package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.NewFire;
import io.ax.test.jdbc.TestDatabase;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.UnexpectedRollbackException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The store's transactions: its own commit and roll back whole, an outer Spring transaction on the same data source
 * is joined (and doomed by a failed write, as {@code PROPAGATION_REQUIRED}), and a write on a connection that breaks,
 * whose rollback fails too, reaches the caller as the write's failure without an ERROR in the log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionsTest {

    private static final String PREFIX = "axtxt_";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final List<ILoggingEvent> logged = new ArrayList<>();
    private final AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            synchronized (logged) {
                logged.add(event);
            }
        }
    };

    private CuttableDataSource dataSource;
    private JdbcTemplate jdbc;
    private Transactions tx;

    @BeforeAll
    void createTables() {
        TestDatabase.H2.migrate(PREFIX);
        new JdbcTemplate(TestDatabase.H2.dataSource())
                .execute("CREATE TABLE IF NOT EXISTS " + PREFIX + "probe (id INT PRIMARY KEY)");
    }

    @BeforeEach
    void freshTables() {
        TestDatabase.H2.truncate(PREFIX);
        dataSource = new CuttableDataSource(TestDatabase.H2.dataSource());
        jdbc = new JdbcTemplate(dataSource);
        jdbc.update("DELETE FROM " + PREFIX + "probe");
        tx = new Transactions(dataSource, jdbc.getExceptionTranslator());
        capture.start();
        root.addAppender(capture);
    }

    @AfterEach
    void stopCapture() {
        root.detachAppender(capture);
    }

    private int probes() {
        Integer n = new JdbcTemplate(TestDatabase.H2.dataSource())
                .queryForObject("SELECT COUNT(*) FROM " + PREFIX + "probe", Integer.class);
        return n == null ? 0 : n;
    }

    private void insertProbe(int id) {
        jdbc.update("INSERT INTO " + PREFIX + "probe (id) VALUES (?)", id);
    }

    @Test
    void itsOwnTransactionCommitsWhenTheWorkReturnsAndRollsBackWholeWhenItThrows() {
        tx.run(() -> {
            insertProbe(1);
            insertProbe(2);
        });
        assertThat(probes()).isEqualTo(2);

        IllegalStateException failure = new IllegalStateException("the second step fails");
        assertThatThrownBy(() -> tx.run(() -> {
                    insertProbe(3);
                    throw failure;
                }))
                .isSameAs(failure);
        assertThat(probes()).isEqualTo(2);
        assertThat(tx.active()).isFalse();
    }

    @Test
    void anOuterSpringTransactionOnTheSameDataSourceIsJoinedAndDecidesForBoth() {
        TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

        outer.executeWithoutResult(status -> {
            assertThat(tx.active()).isTrue();
            tx.run(() -> insertProbe(1));
            status.setRollbackOnly();
        });
        assertThat(probes()).isZero();

        outer.executeWithoutResult(status -> tx.run(() -> insertProbe(2)));
        assertThat(probes()).isEqualTo(1);
    }

    @Test
    void aFailedWriteInsideAnOuterTransactionDoomsItAsPropagationRequiredDoes() {
        TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

        assertThatThrownBy(() -> outer.executeWithoutResult(status -> {
                    insertProbe(1);
                    try {
                        tx.run(() -> insertProbe(1)); // a duplicate key
                    } catch (DataAccessException expected) {
                        // the caller goes on as if nothing happened; the transaction must not commit half
                    }
                }))
                .isInstanceOf(UnexpectedRollbackException.class);
        assertThat(probes()).isZero();
    }

    @Test
    void aWriteOnABrokenConnectionThrowsItsOwnFailureAndLogsNoErrorWhenTheRollbackFailsToo() {
        JdbcInstanceStore store = new JdbcInstanceStore(dataSource, PREFIX);
        TaskInstance instance =
                new TaskInstance(UUID.randomUUID().toString(), "mail", T0, InstanceState.SCHEDULED, 0, "n1", T0);
        store.schedule(List.of(new NewFire(instance, "")));
        dataSource.cutAfterConnecting = true;

        assertThatThrownBy(() -> store.transition(new Transition(
                        instance.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED, 0, "n1", T0, "")))
                .isInstanceOf(DataAccessException.class)
                .hasRootCauseMessage("connection cut")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .singleElement()
                        .satisfies(s -> assertThat(s).hasMessage("rollback on a cut connection")));

        synchronized (logged) {
            assertThat(logged)
                    .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .isEmpty();
        }
        dataSource.cutAfterConnecting = false;
        assertThat(store.find(instance.id()).orElseThrow().state()).isEqualTo(InstanceState.SCHEDULED);
    }

    /** Hands out connections that, once cut, fail every statement and every rollback, as a dropped link does. */
    private static final class CuttableDataSource extends DelegatingDataSource {

        volatile boolean cutAfterConnecting;

        CuttableDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection real = super.getConnection();
            if (!cutAfterConnecting) {
                return real;
            }
            InvocationHandler cut = (proxy, method, args) -> {
                String name = method.getName();
                if (name.startsWith("prepare") || name.equals("createStatement")) {
                    throw new SQLTransientConnectionException("connection cut", "08006");
                }
                if (name.equals("rollback")) {
                    throw new SQLTransientConnectionException("rollback on a cut connection", "08006");
                }
                try {
                    return method.invoke(real, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return (Connection)
                    Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, cut);
        }
    }
}
