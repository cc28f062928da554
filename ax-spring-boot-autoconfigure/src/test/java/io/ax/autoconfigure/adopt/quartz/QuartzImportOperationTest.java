package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.endpoint.AxEndpoint;
import io.ax.autoconfigure.endpoint.AxEndpointAutoConfiguration;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.TaskDefinition;
import io.ax.core.engine.AxEngine;
import io.ax.test.jdbc.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The operators' ways to import the application's Quartz store: the endpoint operation (a dry run unless asked to
 * apply; bad input answered 400) and the import once at start ({@code ax.adopt.quartz-import}), both reading the
 * store's name and tables from {@code spring.quartz.*} when not given them.
 */
class QuartzImportOperationTest {

    private static final String PREFIX = "axqo_";

    private ApplicationContextRunner app(QuartzStores store) {
        TestDatabase db = TestDatabase.POSTGRESQL;
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class,
                        AxAutoConfiguration.class,
                        AxEndpointAutoConfiguration.class,
                        QuartzAdoptionAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + db.url(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "management.endpoints.web.exposure.include=ax",
                        "management.endpoint.ax.access=UNRESTRICTED",
                        "ax.adopt.quartz=true",
                        "ax.jdbc.table-prefix=" + PREFIX,
                        "spring.quartz.scheduler-name=" + store.schedulerName,
                        "spring.quartz.properties.org.quartz.jobStore.tablePrefix=" + store.prefix);
    }

    @BeforeEach
    void emptyDatabase() {
        TestDatabase.POSTGRESQL.dataSource(); // skips (or fails) here when PostgreSQL does not answer
        TestDatabase.POSTGRESQL.migrate(PREFIX);
    }

    @Test
    void theEndpointReportsByDefaultAndImportsWhenAskedTo() throws Exception {
        try (QuartzStores store = new QuartzStores(TestDatabase.POSTGRESQL)) {
            fill(store);
            app(store).run(context -> {
                assertThat(context).hasNotFailed();
                AxEndpoint endpoint = context.getBean(AxEndpoint.class);
                AxEngine engine = context.getBean(AxEngine.class);

                WebEndpointResponse<Object> dryRun = endpoint.importStore("quartz-import", null, null, null);
                assertThat(dryRun.getStatus()).isEqualTo(200);
                QuartzImportReport report = (QuartzImportReport) dryRun.getBody();
                assertThat(report.applied()).isFalse();
                assertThat(report.schedulerName()).isEqualTo(store.schedulerName);
                assertThat(report.imported()).isEqualTo(1);
                assertThat(engine.list()).isEmpty();
                assertThat(store.state("hourly")).isEqualTo("WAITING");

                assertThat(endpoint.importStore("quartz-import", "yes", null, null)
                                .getStatus())
                        .isEqualTo(400);
                assertThat(endpoint.importStore("quartz-import", "true", "no such prefix", null)
                                .getStatus())
                        .isEqualTo(400);
                assertThat(endpoint.importStore("quartz-export", "true", null, null)
                                .getStatus())
                        .isEqualTo(404);
                assertThat(engine.list()).isEmpty();

                WebEndpointResponse<Object> applied =
                        endpoint.importStore("quartz-import", "true", store.prefix, store.schedulerName);
                assertThat(applied.getStatus()).isEqualTo(200);
                assertThat(((QuartzImportReport) applied.getBody()).applied()).isTrue();
                assertThat(engine.list()).extracting(TaskDefinition::name).containsExactly("quartz:DEFAULT.hourly");
                assertThat(store.state("hourly")).isEqualTo(QuartzStoreReader.IMPORTED);
            });
        }
    }

    @Test
    void theImportAtStartDoesWhatItsSettingSays() throws Exception {
        try (QuartzStores store = new QuartzStores(TestDatabase.POSTGRESQL)) {
            fill(store);
            ApplicationArguments none = new DefaultApplicationArguments();
            app(store).withPropertyValues("ax.adopt.quartz-import=dry-run").run(context -> {
                context.getBean("axQuartzImportAtStart", ApplicationRunner.class)
                        .run(none);
                assertThat(context.getBean(AxEngine.class).list()).isEmpty();
                assertThat(store.state("hourly")).isEqualTo("WAITING");
            });
            app(store).withPropertyValues("ax.adopt.quartz-import=apply").run(context -> {
                context.getBean("axQuartzImportAtStart", ApplicationRunner.class)
                        .run(none);
                assertThat(context.getBean(AxEngine.class).list())
                        .extracting(TaskDefinition::name)
                        .containsExactly("quartz:DEFAULT.hourly");
                assertThat(store.state("hourly")).isEqualTo(QuartzStoreReader.IMPORTED);
            });
        }
    }

    private static void fill(QuartzStores store) throws Exception {
        Scheduler filler = store.scheduler("filler");
        try {
            filler.scheduleJob(
                    JobBuilder.newJob(QuartzStoreImportTest.NoopJob.class)
                            .withIdentity("report")
                            .build(),
                    TriggerBuilder.newTrigger()
                            .withIdentity("hourly")
                            .withSchedule(CronScheduleBuilder.cronSchedule("0 0 * * * ?"))
                            .build());
        } finally {
            filler.shutdown();
        }
    }
}
