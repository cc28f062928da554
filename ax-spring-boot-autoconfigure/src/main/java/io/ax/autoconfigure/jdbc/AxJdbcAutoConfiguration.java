package io.ax.autoconfigure.jdbc;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.SettingChecks;
import io.ax.core.engine.AttemptTransactions;
import io.ax.core.store.InstanceStore;
import io.ax.jdbc.JdbcAttemptTransactions;
import io.ax.jdbc.JdbcInstanceStore;
import java.time.Duration;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

/**
 * Keeps AX's instances in the application's DataSource: the durable store, created (and migrated, per
 * {@code ax.jdbc.initialize-schema}) when there is exactly one DataSource. Without one AX keeps them in memory. The
 * store also holds the cluster's leader lease and node registry, so replicas on one database form one cluster.
 */
@AutoConfiguration(
        before = AxAutoConfiguration.class,
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({JdbcTemplate.class, Flyway.class})
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(
        name = {"ax.enabled", "ax.jdbc.enabled"},
        matchIfMissing = true)
@EnableConfigurationProperties(AxProperties.class)
public final class AxJdbcAutoConfiguration {

    /** Below Connection.setNetworkTimeout's limit, Integer.MAX_VALUE milliseconds (24.8 days). */
    private static final Duration MAX_NETWORK_TIMEOUT = Duration.ofDays(24);

    @Bean
    @ConditionalOnMissingBean
    InstanceStore axInstanceStore(DataSource dataSource, AxProperties properties) {
        AxProperties.Jdbc jdbc = properties.getJdbc();
        if (!org.springframework.util.ClassUtils.isPresent("tools.jackson.databind.json.JsonMapper", null)) {
            // found now, not at the first dead letter, where it would leave an instance DEAD without its letter
            throw new IllegalStateException("The AX JDBC store writes dead letters as JSON and needs Jackson 3"
                    + " (tools.jackson.core:jackson-databind) on the class path; ax-spring-boot-starter brings it");
        }
        Duration networkTimeout = networkTimeout(jdbc); // before the tables are touched
        requireReachable(dataSource);
        JdbcSchemaInitializer.initialize(dataSource, jdbc.getTablePrefix(), jdbc.getInitializeSchema());
        return new JdbcInstanceStore(dataSource, jdbc.getTablePrefix(), networkTimeout);
    }

    /**
     * A database that does not answer (a wrong URL, a server that is down) stops start-up with one message naming the
     * settings, not with the stack trace of the first statement that needed it.
     */
    private static void requireReachable(DataSource dataSource) {
        try (java.sql.Connection ignored = dataSource.getConnection()) {
            // reached
        } catch (java.sql.SQLException | RuntimeException e) {
            throw new DatabaseUnreachableException(e);
        }
    }

    /** The store checks it too, but names neither the default nor its limit; a bad value stops start-up here. */
    private static Duration networkTimeout(AxProperties.Jdbc jdbc) {
        Duration timeout = jdbc.getNetworkTimeout();
        if (timeout == null || timeout.isNegative() || timeout.compareTo(MAX_NETWORK_TIMEOUT) > 0) {
            throw SettingChecks.invalid(
                    "ax.jdbc.network-timeout",
                    "must be between 0s and 24d, was " + timeout,
                    "how long each of AX's statements waits at most for the database's answer, 0s for the driver's"
                            + " own timeout",
                    "10s");
        }
        return timeout;
    }

    /**
     * The transactions of transactional tasks: the application's one transaction manager, when it manages the JDBC
     * store's DataSource. Otherwise none (a null bean, which the engine's provider reads as absent), and a task
     * marked transactional is refused when it is registered, with the reason.
     */
    @Bean
    @ConditionalOnMissingBean(AttemptTransactions.class)
    AttemptTransactions axAttemptTransactions(
            ObjectProvider<PlatformTransactionManager> managers, ObjectProvider<InstanceStore> store) {
        PlatformTransactionManager manager = managers.getIfUnique();
        if (manager == null || !(store.getIfAvailable() instanceof JdbcInstanceStore jdbcStore)) {
            return null;
        }
        DataSource managed = managedDataSource(manager);
        if (managed == null
                || TransactionSynchronizationUtils.unwrapResourceIfNecessary(managed)
                        != TransactionSynchronizationUtils.unwrapResourceIfNecessary(jdbcStore.dataSource())) {
            return null;
        }
        return new JdbcAttemptTransactions(manager, jdbcStore.dataSource());
    }

    /** The DataSource a transaction manager manages: a JDBC one's, or a JPA one's; null for any other. */
    private static DataSource managedDataSource(PlatformTransactionManager manager) {
        if (manager instanceof DataSourceTransactionManager jdbc) {
            return jdbc.getDataSource();
        }
        try {
            // JpaTransactionManager, without a compile-time dependency on spring-orm
            Object ds = manager.getClass().getMethod("getDataSource").invoke(manager);
            return ds instanceof DataSource d ? d : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
