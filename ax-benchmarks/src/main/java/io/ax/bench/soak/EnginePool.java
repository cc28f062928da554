package io.ax.bench.soak;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import java.net.URI;

/**
 * The engine's connections, through the proxy, with short timeouts so that a statement caught by an outage fails
 * within seconds instead of hanging as long as the partition: the way an application on a flaky network would be
 * configured, and the way AX is told that the store is away.
 */
final class EnginePool {

    /** PgJDBC timeouts, in seconds: reads (the longest statement of this workload takes well under a second). */
    static final int SOCKET_TIMEOUT = 5;

    private static final int CONNECT_TIMEOUT = 2;

    /** Hikari's wait for a connection from the pool, in ms. */
    private static final long CONNECTION_TIMEOUT = 2_000;

    private static final int CONNECTIONS = 8;

    private EnginePool() {}

    /** Where the proxy must send traffic: host and port of {@code --jdbc-url}. */
    static URI target(Options options) {
        return URI.create(options.jdbcUrl().substring("jdbc:".length()));
    }

    static HikariDataSource open(Options options, int proxyPort) {
        URI target = target(options);
        String query = target.getRawQuery() == null ? "" : target.getRawQuery() + "&";
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + proxyPort + target.getRawPath() + "?" + query
                + "socketTimeout=" + SOCKET_TIMEOUT + "&connectTimeout=" + CONNECT_TIMEOUT + "&loginTimeout="
                + CONNECT_TIMEOUT);
        config.setUsername(options.jdbcUser());
        config.setPassword(options.jdbcPassword());
        config.setMaximumPoolSize(CONNECTIONS);
        config.setMinimumIdle(2);
        config.setConnectionTimeout(CONNECTION_TIMEOUT);
        config.setValidationTimeout(1_000);
        config.setPoolName("soak-engine");
        return new HikariDataSource(config);
    }
}
