package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.jdbc.JdbcInstanceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.springframework.jdbc.datasource.DriverManagerDataSource;

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

    /** A job fired every second by three triggers, one of each misfire policy. */
    @Configuration(proxyBeanMethods = false)
    static class EverySecond {

        @Bean
        JobDetail tick() {
            return JobBuilder.newJob(CountingJob.class)
                    .withIdentity("tick")
                    .storeDurably()
                    .build();
        }

        @Bean
        Trigger fireOnce(JobDetail tick) {
            return every(tick, "fire-once", CronScheduleBuilder.cronSchedule("* * * * * ?"));
        }

        @Bean
        Trigger doNothing(JobDetail tick) {
            return every(
                    tick,
                    "do-nothing",
                    CronScheduleBuilder.cronSchedule("* * * * * ?").withMisfireHandlingInstructionDoNothing());
        }

        @Bean
        Trigger ignore(JobDetail tick) {
            return every(
                    tick,
                    "ignore",
                    CronScheduleBuilder.cronSchedule("* * * * * ?").withMisfireHandlingInstructionIgnoreMisfires());
        }

        private static Trigger every(JobDetail job, String name, CronScheduleBuilder schedule) {
            return TriggerBuilder.newTrigger()
                    .forJob(job)
                    .withIdentity(name)
                    .withSchedule(schedule)
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
        node().withUserConfiguration(Jobs.class).run(first -> {
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

        node().withUserConfiguration(Jobs.class).run(second -> {
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

    @Test
    void aFireMissedWhileNoNodeRanIsCaughtUpOrSkippedAsItsMisfireInstructionSays() {
        ApplicationContextRunner node =
                node().withUserConfiguration(EverySecond.class).withPropertyValues("ax.misfire.threshold=500ms");
        node.run(first -> assertThat(first).hasNotFailed());
        // what the stopped node left: each series' next fire, SCHEDULED
        JdbcInstanceStore store = new JdbcInstanceStore(new DriverManagerDataSource(database, "sa", ""), "ax_");
        Map<String, TaskInstance> pending = new HashMap<>();
        store.findByStates(Set.of(InstanceState.SCHEDULED), 100).forEach(i -> pending.put(i.taskName(), i));
        assertThat(pending)
                .containsKeys("quartz:DEFAULT.fire-once", "quartz:DEFAULT.do-nothing", "quartz:DEFAULT.ignore");
        Instant latest = pending.values().stream()
                .map(TaskInstance::scheduledTime)
                .max(Instant::compareTo)
                .orElseThrow();
        // no node runs while two more fire times and the threshold pass
        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(latest.plusMillis(2_600)));

        node.run(second -> {
            assertThat(second).hasNotFailed();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> state(store, pending.get("quartz:DEFAULT.fire-once")) == InstanceState.SUCCESS
                            && state(store, pending.get("quartz:DEFAULT.do-nothing")) == InstanceState.CANCELLED
                            && state(store, pending.get("quartz:DEFAULT.ignore")) == InstanceState.SUCCESS);
            assertThat(store.auditTrail(pending.get("quartz:DEFAULT.do-nothing").id()))
                    .anySatisfy(e -> assertThat(e.reason()).startsWith("misfire policy SKIP"));
            assertThat(catchUps(store, "quartz:DEFAULT.fire-once"))
                    .as("FIRE_ONCE: the missed fire alone")
                    .isZero();
            assertThat(catchUps(store, "quartz:DEFAULT.do-nothing")).isZero();
            assertThat(catchUps(store, "quartz:DEFAULT.ignore"))
                    .as("FIRE_ALL: the other missed fire times too")
                    .isGreaterThanOrEqualTo(2);
        });
    }

    private static InstanceState state(JdbcInstanceStore store, TaskInstance instance) {
        return store.find(instance.id()).orElseThrow().state();
    }

    private static long catchUps(JdbcInstanceStore store, String task) {
        return store.findByTask(task, 1000).stream()
                .filter(i -> i.origin() == InstanceOrigin.CATCH_UP)
                .count();
    }
}
