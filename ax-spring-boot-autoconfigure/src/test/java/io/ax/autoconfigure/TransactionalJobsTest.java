package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.AxJob;
import io.ax.core.InstanceState;
import io.ax.core.InvalidTaskException;
import io.ax.core.engine.AttemptTransactions;
import io.ax.core.engine.AxEngine;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code @AxJob(transactional = true)} in an application: with the JDBC store and Spring Boot's transaction manager on
 * the one DataSource, the method's {@code JdbcTemplate} writes commit with the instance's success, and roll back with
 * its failure; without a transaction manager, start-up stops naming the attribute.
 */
class TransactionalJobsTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class, AxJdbcAutoConfiguration.class, AxAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                    "spring.datasource.username=sa");

    @Configuration(proxyBeanMethods = false)
    static class Ledger {
        private final JdbcTemplate jdbc;

        Ledger(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
            jdbc.execute("CREATE TABLE IF NOT EXISTS ledger (entry VARCHAR(40))");
        }

        @AxJob(name = "book", transactional = true, timeout = "5s")
        void book() {
            jdbc.update("INSERT INTO ledger (entry) VALUES ('booked')");
        }

        @AxJob(name = "bounce", transactional = true, timeout = "5s")
        void bounce() {
            jdbc.update("INSERT INTO ledger (entry) VALUES ('bounced')");
            throw new IllegalStateException("the card was declined");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Template {
        @org.springframework.context.annotation.Bean
        JdbcTemplate jdbcTemplate(javax.sql.DataSource dataSource) {
            return new JdbcTemplate(dataSource);
        }
    }

    @Test
    void aTransactionalJobsWritesCommitWithItsSuccessAndRollBackWithItsFailure() {
        runner.withConfiguration(AutoConfigurations.of(DataSourceTransactionManagerAutoConfiguration.class))
                .withUserConfiguration(Template.class, Ledger.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(AttemptTransactions.class);
                    AxEngine engine = context.getBean(AxEngine.class);
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    String booked = engine.triggerNow("book");
                    String bounced = engine.triggerNow("bounce");
                    await().atMost(BOUND)
                            .until(() -> state(engine, booked) == InstanceState.SUCCESS
                                    && state(engine, bounced) == InstanceState.DEAD);
                    assertThat(jdbc.queryForList("SELECT entry FROM ledger", String.class))
                            .containsExactly("booked");
                });
    }

    @Test
    void withoutATransactionManagerATransactionalJobStopsStartUpNamingTheAttribute() {
        runner.withUserConfiguration(Template.class, Ledger.class).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (!(failure instanceof InvalidTaskException) && failure.getCause() != null) {
                failure = failure.getCause();
            }
            assertThat(failure)
                    .isInstanceOf(InvalidTaskException.class)
                    .hasMessageContaining("attribute 'transactional'")
                    .hasMessageContaining("a transaction manager on the store's DataSource");
        });
    }

    private static InstanceState state(AxEngine engine, String id) {
        return engine.find(id).orElseThrow().instance().state();
    }
}
