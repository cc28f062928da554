package io.ax.jdbc;

import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import org.springframework.core.InfrastructureProxy;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's DataSource as AX's store uses it: every connection AX borrows waits at most the network timeout
 * for an answer of the database ({@link Connection#setNetworkTimeout}). A network that drops packets without a word
 * (a partition, a blackholed route) otherwise holds a statement on a connection already checked out for as long as
 * the driver's socket timeout, which is often forever: the writer, the heartbeat and the claims would hang there
 * after the network is back. A statement cancel does not help, as it needs a new connection over the same network.
 *
 * <p>Transactions are not changed: as an {@link InfrastructureProxy} it is the same DataSource for Spring's
 * transaction synchronization, so AX's writes inside the application's transaction on the target still join it (on
 * the application's connection, whose timeout AX leaves alone). A pool that tracks the timeout (HikariCP) resets it
 * when the connection goes back. A driver that cannot set one (H2's embedded mode) is left as it is, said once at
 * DEBUG. Thread-safe.
 */
final class NetworkTimeoutDataSource extends DelegatingDataSource implements InfrastructureProxy {

    private static final System.Logger LOG = Loggers.get(NetworkTimeoutDataSource.class.getName());
    /** The drivers AX supports read the socket on the calling thread: the executor is only for those that abort. */
    private static final Executor CALLER = Runnable::run;

    private final int timeoutMillis;
    private volatile boolean unsupported;

    private NetworkTimeoutDataSource(DataSource target, int timeoutMillis) {
        super(target);
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * {@code target} with every connection bounded by {@code timeout}; {@code target} itself when the timeout is zero
     * (the driver's own then holds).
     *
     * @throws IllegalArgumentException when the timeout is negative or longer than {@link Integer#MAX_VALUE} ms
     */
    static DataSource of(DataSource target, Duration timeout) {
        if (timeout.isNegative() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "ax.jdbc.network-timeout must be zero (the driver's own) or positive, was " + timeout);
        }
        if (timeout.isZero() || target instanceof NetworkTimeoutDataSource) {
            return target;
        }
        return new NetworkTimeoutDataSource(target, (int) Math.max(1, timeout.toMillis()));
    }

    @Override
    public Connection getConnection() throws SQLException {
        return bounded(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return bounded(super.getConnection(username, password));
    }

    private Connection bounded(Connection connection) throws SQLException {
        if (unsupported) {
            return connection;
        }
        try {
            connection.setNetworkTimeout(CALLER, timeoutMillis);
        } catch (SQLFeatureNotSupportedException | AbstractMethodError | UnsupportedOperationException e) {
            unsupported = true;
            LOG.log(
                    Level.DEBUG,
                    "The JDBC driver sets no network timeout ({0}); AX''s statements wait as long as it lets them",
                    e.toString());
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    @Override
    public Object getWrappedObject() {
        return obtainTargetDataSource();
    }
}
