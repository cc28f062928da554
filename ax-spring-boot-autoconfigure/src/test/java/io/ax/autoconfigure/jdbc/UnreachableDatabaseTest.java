package io.ax.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A database that does not answer stops start-up with one message naming the settings to check, not the stack trace
 * of the first statement AX ran (a port where nothing listens: the driver is refused at once).
 */
class UnreachableDatabaseTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class, AxJdbcAutoConfiguration.class, AxAutoConfiguration.class));

    @Test
    void aDatabaseThatDoesNotAnswerIsOneMessageNamingTheSettings() {
        runner.withPropertyValues(
                        "spring.datasource.url=jdbc:postgresql://127.0.0.1:1/nowhere",
                        "spring.datasource.username=postgres")
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    FailureAnalysis analysis = new DatabaseUnreachableFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("AX's analysis of:\n" + failure).isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith("AX keeps its instances in the application's database, and it cannot reach"
                                    + " it: ")
                            .contains("127.0.0.1:1");
                    assertThat(analysis.getAction())
                            .startsWith("Check spring.datasource.url, spring.datasource.username and"
                                    + " spring.datasource.password")
                            .contains("ax.jdbc.enabled=false");
                });
    }
}
