package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxJob;
import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

class AxJdbcAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class, AxJdbcAutoConfiguration.class, AxAutoConfiguration.class));

    private ApplicationContextRunner onH2() {
        return runner.withPropertyValues(
                "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "spring.datasource.username=sa");
    }

    @Test
    void keepsInstancesInTheApplicationsDatabaseAndCreatesTheTablesOnH2() {
        onH2().withUserConfiguration(Jobs.class).run(context -> {
            assertThat(context.getBean(InstanceStore.class)).isInstanceOf(JdbcInstanceStore.class);
            AxEngine engine = context.getBean(AxEngine.class);
            String id = engine.triggerNow("audited");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> engine.store()
                            .find(id)
                            .map(i -> i.state() == InstanceState.SUCCESS)
                            .orElse(false));
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ax_audit WHERE instance_id = ?", Integer.class, id))
                    .isEqualTo(5);
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ax_task WHERE name = 'audited'", Integer.class))
                    .isOne();
        });
    }

    @Test
    void usesTheConfiguredTablePrefix() {
        onH2().withPropertyValues("ax.jdbc.table-prefix=sched_").run(context -> {
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sched_instance", Integer.class))
                    .isZero();
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"sched_schema_history\"", Integer.class))
                    .isPositive();
        });
    }

    @Test
    void rejectsAnUnsafeTablePrefix() {
        onH2().withPropertyValues("ax.jdbc.table-prefix=ax; DROP TABLE x; --").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ax.jdbc.table-prefix");
        });
    }

    @Test
    void leavesTheSchemaAloneWhenToldNeverAndSaysWhatIsMissing() {
        onH2().withPropertyValues("ax.jdbc.initialize-schema=never").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("ax_instance")
                    .hasMessageContaining("ax.jdbc.initialize-schema=always");
        });
    }

    @Test
    void leavesAServerDatabaseAloneByDefaultAndMigratesItWhenToldAlways() {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        pg.dataSource(); // skips (or fails when services are required) when PostgreSQL is down
        pg.dropTables("axauto_");
        ApplicationContextRunner onPostgres = runner.withPropertyValues(
                "spring.datasource.url=" + pg.url(),
                "spring.datasource.username=" + pg.user(),
                "ax.jdbc.table-prefix=axauto_");
        onPostgres.run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("axauto_instance");
        });
        onPostgres.withPropertyValues("ax.jdbc.initialize-schema=always").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(tableExists(context.getBean(javax.sql.DataSource.class))).isTrue();
        });
    }

    @Test
    void staysInMemoryWhenJdbcIsTurnedOff() {
        onH2().withPropertyValues("ax.jdbc.enabled=false")
                .run(context ->
                        assertThat(context.getBean(InstanceStore.class)).isInstanceOf(InMemoryInstanceStore.class));
    }

    @Test
    void staysInMemoryWithoutADataSource() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxJdbcAutoConfiguration.class, AxAutoConfiguration.class))
                .run(context ->
                        assertThat(context.getBean(InstanceStore.class)).isInstanceOf(InMemoryInstanceStore.class));
    }

    @Test
    void staysInMemoryWithoutSpringJdbcOnTheClasspath() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxJdbcAutoConfiguration.class, AxAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
                .run(context ->
                        assertThat(context.getBean(InstanceStore.class)).isInstanceOf(InMemoryInstanceStore.class));
    }

    private static boolean tableExists(javax.sql.DataSource dataSource) {
        Integer n = new JdbcTemplate(dataSource)
                .queryForObject(
                        "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'axauto_instance'",
                        Integer.class);
        return n != null && n > 0;
    }

    static class AuditedJob {
        @AxJob(name = "audited", timeout = "5s")
        void run() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {
        @Bean
        AuditedJob audited() {
            return new AuditedJob();
        }
    }
}
