package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.AxJob;
import io.ax.core.engine.AxEngine;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/** What AX tells at start: one line on what it runs on, and a warning when durability is silently lost. */
@ExtendWith(OutputCaptureExtension.class)
class AxStartupReportTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class))
            .withUserConfiguration(Jobs.class)
            .withPropertyValues("ax.node-id=report-node");

    @Test
    void onTheInMemoryStoreTheLineSaysSoAndEachPersistentTaskIsWarnedAbout(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context.getBean(AxEngine.class).isRunning()).isTrue();
            assertThat(output)
                    .contains("AX engine started on node report-node: store in-memory, 2 task(s) (2 PERSISTENT,"
                            + " 0 MEMORY), cluster role leader, owns 256 of 256 partitions now")
                    .contains("Task 'nightly' is declared PERSISTENT, but AX keeps its instances in memory")
                    .contains("Task 'report' is declared PERSISTENT, but AX keeps its instances in memory");
        });
    }

    @Test
    void onADatabaseTheLineNamesItWithoutCredentialsAndNothingIsWarnedAbout(CapturedOutput output) {
        runner.withConfiguration(
                        AutoConfigurations.of(DataSourceAutoConfiguration.class, AxJdbcAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:startup-report;DB_CLOSE_DELAY=-1",
                        "spring.datasource.username=sa",
                        "spring.datasource.password=secret-password")
                .run(context -> {
                    assertThat(context.getBean(AxEngine.class).isRunning()).isTrue();
                    assertThat(output)
                            .contains("AX engine started on node report-node: store jdbc (H2 at"
                                    + " jdbc:h2:mem:startup-report), 2 task(s) (2 PERSISTENT, 0 MEMORY), cluster"
                                    + " role leader")
                            .doesNotContain("secret-password")
                            .doesNotContain("is declared PERSISTENT, but");
                });
    }

    @Test
    void theDefaultNodeIdIsTheHostAsTheJdkNamesItAndTheProcessId() throws Exception {
        String expected = InetAddress.getLocalHost().getHostName() + "-"
                + ProcessHandle.current().pid();

        assertThat(NodeIds.resolve(null)).isEqualTo(expected);
        assertThat(NodeIds.resolve(" ")).isEqualTo(expected);
        assertThat(NodeIds.resolve(" worker-7 ")).isEqualTo("worker-7");
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @AxJob(name = "report", timeout = "5s")
        void report() {}

        @AxJob(name = "nightly", cron = "0 0 3 * * ?", timeout = "5s")
        void nightly() {}
    }
}
