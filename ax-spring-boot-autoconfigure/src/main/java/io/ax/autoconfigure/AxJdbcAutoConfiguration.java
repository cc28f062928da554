package io.ax.autoconfigure;

import io.ax.core.store.InstanceStore;
import io.ax.jdbc.JdbcInstanceStore;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

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

    @Bean
    @ConditionalOnMissingBean
    InstanceStore axInstanceStore(DataSource dataSource, AxProperties properties) {
        AxProperties.Jdbc jdbc = properties.getJdbc();
        if (!org.springframework.util.ClassUtils.isPresent("tools.jackson.databind.json.JsonMapper", null)) {
            // found now, not at the first dead letter, where it would leave an instance DEAD without its letter
            throw new IllegalStateException("The AX JDBC store writes dead letters as JSON and needs Jackson 3"
                    + " (tools.jackson.core:jackson-databind) on the class path; ax-spring-boot-starter brings it");
        }
        JdbcSchemaInitializer.initialize(dataSource, jdbc.getTablePrefix(), jdbc.getInitializeSchema());
        return new JdbcInstanceStore(dataSource, jdbc.getTablePrefix(), jdbc.getNetworkTimeout());
    }
}
