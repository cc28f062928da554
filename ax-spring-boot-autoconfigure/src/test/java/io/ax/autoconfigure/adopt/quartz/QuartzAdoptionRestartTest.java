package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxJdbcAutoConfiguration;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A node that restarts does not fire an adopted job off its schedule: at its start, AX finds the series' next fire in
 * its database and keeps it, whatever the trigger would compute from the new start (a simple trigger's first fire
 * counts from its start time, which Spring's factory beans and builders set at each start).
 */
class QuartzAdoptionRestartTest {

    static final AtomicInteger RUNS = new AtomicInteger();

    static final class CountingJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            RUNS.incrementAndGet();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @Bean
        JobDetail report() {
            return JobBuilder.newJob(CountingJob.class)
                    .withIdentity("report")
                    .storeDurably()
                    .build();
        }

        /** Hourly from a start time ten minutes after each start of the application. */
        @Bean
        Trigger hourly(JobDetail report) {
            return TriggerBuilder.newTrigger()
                    .forJob(report)
                    .withIdentity("hourly")
                    .withSchedule(SimpleScheduleBuilder.repeatHourlyForever())
                    .startAt(Date.from(Instant.now().plus(Duration.ofMinutes(10))))
                    .build();
        }

        @Bean
        Trigger yearly(JobDetail report) {
            return TriggerBuilder.newTrigger()
                    .forJob(report)
                    .withIdentity("yearly")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 0 1 1 ?"))
                    .build();
        }
    }

    private final String database = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    private ApplicationContextRunner node() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class,
                        AxAutoConfiguration.class,
                        QuartzAutoConfiguration.class,
                        QuartzAdoptionAutoConfiguration.class))
                .withUserConfiguration(Jobs.class)
                .withPropertyValues(
                        "spring.datasource.url=" + database,
                        "spring.datasource.username=sa",
                        "ax.adopt.quartz=true",
                        "ax.node-id=restarting");
    }

    private static List<TaskInstance> instances(AxEngine engine, String task) {
        return engine.store().findByTask(task, 100);
    }

    @Test
    void aRestartedNodeKeepsEachSeriesNextFireAndFiresNothingElse() {
        AtomicReference<Instant> hourly = new AtomicReference<>();
        AtomicReference<Instant> yearly = new AtomicReference<>();
        RUNS.set(0);
        node().run(first -> {
            assertThat(first).hasNotFailed();
            AxEngine engine = first.getBean(AxEngine.class);
            hourly.set(engine.store()
                    .findTask("quartz:DEFAULT.hourly")
                    .orElseThrow()
                    .nextFireTime());
            yearly.set(engine.store()
                    .findTask("quartz:DEFAULT.yearly")
                    .orElseThrow()
                    .nextFireTime());
        });
        assertThat(hourly.get()).isAfter(Instant.now().plus(Duration.ofMinutes(9)));
        assertThat(yearly.get()).isAfter(Instant.now());

        node().run(second -> {
            assertThat(second).hasNotFailed();
            AxEngine engine = second.getBean(AxEngine.class);
            assertThat(instances(engine, "quartz:DEFAULT.hourly"))
                    .as("the first start's fire, not one ten minutes after this start")
                    .singleElement()
                    .satisfies(i -> {
                        assertThat(i.scheduledTime()).isEqualTo(hourly.get());
                        assertThat(i.state()).isEqualTo(InstanceState.SCHEDULED);
                    });
            assertThat(instances(engine, "quartz:DEFAULT.yearly"))
                    .singleElement()
                    .satisfies(i -> assertThat(i.scheduledTime()).isEqualTo(yearly.get()));
            assertThat(engine.store()
                            .findTask("quartz:DEFAULT.hourly")
                            .orElseThrow()
                            .nextFireTime())
                    .isEqualTo(hourly.get());
        });
        assertThat(RUNS.get()).isZero();
    }
}
