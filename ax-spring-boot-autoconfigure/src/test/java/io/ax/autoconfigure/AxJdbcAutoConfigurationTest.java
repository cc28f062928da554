package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

@ExtendWith(OutputCaptureExtension.class)
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
                    .as("CREATED, SCHEDULED, RUNNING, SUCCESS")
                    .isEqualTo(4);
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ax_task WHERE name = 'audited'", Integer.class))
                    .isOne();
        });
    }

    @Test
    void aNodeConfiguredWithAnotherPartitionCountThanItsDatabaseRecordsDoesNotStart() {
        String url = "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        runner.withPropertyValues(url, "spring.datasource.username=sa")
                .run(first -> assertThat(first).hasNotFailed());

        runner.withPropertyValues(url, "spring.datasource.username=sa", "ax.cluster.partitions=128")
                .run(second -> {
                    assertThat(second).hasFailed();
                    assertThat(second.getStartupFailure())
                            .rootCause()
                            .isInstanceOf(io.ax.core.cluster.PartitionCountMismatchException.class);
                    org.springframework.boot.diagnostics.FailureAnalysis analysis =
                            new PartitionCountMismatchFailureAnalyzer().analyze(second.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .startsWith("The cluster's database records 256 partitions, and this node is configured"
                                    + " with ax.cluster.partitions=128.");
                    assertThat(analysis.getAction())
                            .isEqualTo("Set ax.cluster.partitions=256 on every node (or remove the setting: 256 is"
                                    + " the default).");
                });
    }

    @Test
    void aNodeStartedBesideALiveNodeOfAnotherClusterProtocolDoesNotStartAndSaysWhy() {
        String url = "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        runner.withPropertyValues(url, "spring.datasource.username=sa").run(first -> {
            assertThat(first).hasNotFailed();
            // a node of another version, heartbeating beside the first
            new io.ax.jdbc.JdbcNodeRegistry(first.getBean(javax.sql.DataSource.class), "ax_")
                    .register(
                            new io.ax.core.cluster.NodeInfo(
                                    "old-1",
                                    "inc",
                                    "old-host",
                                    java.time.Instant.now(),
                                    java.util.Set.of("default"),
                                    4,
                                    io.ax.core.cluster.ClusterProtocol.CURRENT + 1),
                            Duration.ofMinutes(1));

            runner.withPropertyValues(url, "spring.datasource.username=sa", "ax.node-id=new-1")
                    .run(second -> {
                        assertThat(second).hasFailed();
                        assertThat(second.getStartupFailure())
                                .rootCause()
                                .isInstanceOf(io.ax.core.cluster.MixedClusterProtocolException.class);
                        org.springframework.boot.diagnostics.FailureAnalysis analysis =
                                new MixedClusterProtocolFailureAnalyzer().analyze(second.getStartupFailure());
                        assertThat(analysis.getDescription())
                                .startsWith("AX node new-1 speaks cluster protocol "
                                        + io.ax.core.cluster.ClusterProtocol.CURRENT
                                        + ", and live nodes of the same database speak another: old-1 on old-host"
                                        + " (protocol " + (io.ax.core.cluster.ClusterProtocol.CURRENT + 1) + ").");
                        assertThat(analysis.getAction()).startsWith("Stop every node of the other version");
                    });
            JdbcTemplate jdbc = new JdbcTemplate(first.getBean(javax.sql.DataSource.class));
            assertThat(jdbc.queryForList("SELECT node_id FROM ax_node ORDER BY node_id", String.class))
                    .as("the refused node left no registration")
                    .doesNotContain("new-1")
                    .contains("old-1");
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
    void leavesTheSchemaAloneWhenToldNeverAndSaysWhatIsMissingAndWhereItIs() {
        onH2().withPropertyValues("ax.jdbc.initialize-schema=never").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new InvalidAxSettingsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription())
                    .startsWith("Invalid AX settings ax.jdbc: ")
                    .contains("ax_instance")
                    .contains("ax.jdbc.initialize-schema=never leaves them to you");
            assertThat(analysis.getAction())
                    .contains("io/ax/jdbc/migration/h2")
                    .contains("remove ax.jdbc.initialize-schema");
        });
    }

    @Test
    void migratesAServerDatabaseByDefaultAndLeavesItAloneWhenToldNever(CapturedOutput output) {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        pg.dataSource(); // skips (or fails when services are required) when PostgreSQL is down
        pg.dropTables("axauto_");
        ApplicationContextRunner onPostgres = runner.withPropertyValues(
                "spring.datasource.url=" + pg.url(),
                "spring.datasource.username=" + pg.user(),
                "ax.jdbc.table-prefix=axauto_");
        onPostgres.withPropertyValues("ax.jdbc.initialize-schema=never").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new InvalidAxSettingsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("axauto_instance");
            assertThat(analysis.getAction()).contains("io/ax/jdbc/migration/postgresql");
        });
        onPostgres.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(tableExists(context.getBean(javax.sql.DataSource.class))).isTrue();
        });
        assertThat(output.getOut()).contains("AX tables (prefix 'axauto_') migrated: V1 ax schema, V2 delayed tasks");
        onPostgres.run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getOut()).contains("AX tables (prefix 'axauto_') are up to date");
    }

    @Test
    void tablesOlderThanThisAxStopAStartThatLeavesThemToTheTeam() {
        String url = "jdbc:h2:mem:older-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
        h2.setURL(url);
        h2.setUser("sa");
        io.ax.jdbc.JdbcSchema.migrate(h2, "ax_", "7");
        runner.withPropertyValues(
                        "spring.datasource.url=" + url,
                        "spring.datasource.username=sa",
                        "ax.jdbc.initialize-schema=never")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("not applied yet: V8 partitions")
                            .hasMessageContaining("older than this AX");
                });
    }

    @Test
    void aDatabaseUserThatMayNotCreateTablesGetsOneClearMessage() {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        javax.sql.DataSource admin = pg.dataSource();
        JdbcTemplate jdbc = new JdbcTemplate(admin);
        jdbc.execute("DROP SCHEMA IF EXISTS axnoddl CASCADE");
        jdbc.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ax_noddl') THEN"
                + " CREATE ROLE ax_noddl LOGIN; END IF; END $$");
        jdbc.execute("CREATE SCHEMA axnoddl");
        jdbc.execute("REVOKE CREATE ON SCHEMA axnoddl FROM PUBLIC");
        jdbc.execute("GRANT USAGE ON SCHEMA axnoddl TO ax_noddl");
        runner.withPropertyValues(
                        "spring.datasource.url=" + pg.url() + (pg.url().contains("?") ? "&" : "?")
                                + "currentSchema=axnoddl",
                        "spring.datasource.username=ax_noddl",
                        "ax.jdbc.table-prefix=axnoddl_")
                .run(context -> assertTheUserMayNotCreateTables(context, "io/ax/jdbc/migration/postgresql"));
        jdbc.execute("DROP SCHEMA IF EXISTS axnoddl CASCADE");
    }

    @Test
    void aMariaDbUserThatMayNotCreateTablesGetsTheSameClearMessage() {
        TestDatabase mariaDb = TestDatabase.MARIADB;
        JdbcTemplate admin = new JdbcTemplate(mariaDb.dataSource()); // skips (or fails when required) when it is down
        mariaDb.dropTables("axnoddl_");
        // the user may read and write the test database's rows, and nothing more; the same however often it runs
        admin.execute("CREATE USER IF NOT EXISTS 'ax_noddl'@'%' IDENTIFIED BY 'ax-noddl'");
        admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON `" + mariaDb.databaseName() + "`.* TO 'ax_noddl'@'%'");
        runner.withPropertyValues(
                        "spring.datasource.url=" + mariaDb.url(),
                        "spring.datasource.username=ax_noddl",
                        "spring.datasource.password=ax-noddl",
                        "ax.jdbc.table-prefix=axnoddl_",
                        "ax.jdbc.initialize-schema=always")
                .run(context -> {
                    assertTheUserMayNotCreateTables(context, "io/ax/jdbc/migration/mysql");
                    assertThat(new InvalidAxSettingsFailureAnalyzer()
                                    .analyze(context.getStartupFailure())
                                    .getDescription())
                            .as("MariaDB's own words, without its driver's connection number")
                            .contains("tables (CREATE command denied to user 'ax_noddl'@");
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

    /** Start-up failed with the one message a user without DDL rights gets, naming the migrations to run instead. */
    private static void assertTheUserMayNotCreateTables(AssertableApplicationContext context, String migrations) {
        assertThat(context).hasFailed();
        FailureAnalysis analysis = new InvalidAxSettingsFailureAnalyzer().analyze(context.getStartupFailure());
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("the database user may not create or change tables");
        assertThat(analysis.getAction()).contains(migrations).contains("ax.jdbc.initialize-schema=never");
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
