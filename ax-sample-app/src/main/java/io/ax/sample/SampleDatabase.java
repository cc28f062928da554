package io.ax.sample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * Under the {@code postgres} profile the sample keeps its tables in a database of its own ({@code ax_sample}), never
 * in one a test suite or another application uses: created here, before anything connects, when it does not exist.
 */
@Configuration(proxyBeanMethods = false)
@Profile("postgres")
class SampleDatabase {

    private static final Logger LOG = LoggerFactory.getLogger(SampleDatabase.class);
    /** {@code jdbc:postgresql://host:port/name?params}: the name, and the URL around it. */
    private static final Pattern URL = Pattern.compile("(jdbc:postgresql://[^/]+/)([A-Za-z_][A-Za-z0-9_]*)(\\?.*)?");

    @Bean
    static BeanPostProcessor sampleDatabaseCreator() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof DataSourceProperties properties) {
                    createIfMissing(
                            properties.determineUrl(), properties.determineUsername(), properties.determinePassword());
                }
                return bean;
            }
        };
    }

    static void createIfMissing(String url, String user, String password) {
        Matcher m = url == null ? null : URL.matcher(url);
        if (m == null || !m.matches()) {
            return; // not a plain PostgreSQL URL: left as it is
        }
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            return; // it exists
        } catch (SQLException e) {
            if (!"3D000".equals(e.getSQLState())) { // invalid_catalog_name: the database does not exist
                return; // another problem: the application's own connection reports it
            }
        }
        String name = m.group(2);
        String maintenance = m.group(1) + "postgres" + (m.group(3) == null ? "" : m.group(3));
        try (Connection c = DriverManager.getConnection(maintenance, user, password);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
            LOG.info("Created the sample's database {}", name);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "The sample's database '" + name + "' does not exist and could not be"
                            + " created (" + e.getMessage() + "); create it (createdb " + name
                            + ") or point AX_SAMPLE_DB_URL"
                            + " at another",
                    e);
        }
    }
}
