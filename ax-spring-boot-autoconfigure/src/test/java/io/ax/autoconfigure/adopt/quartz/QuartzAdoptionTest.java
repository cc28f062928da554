package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.calendar.WeeklyCalendar;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application with Spring Boot's Quartz auto-configuration and Quartz job, trigger beans: with {@code
 * ax.adopt.quartz=true} AX runs them and Quartz's scheduler holds none of them; without it, Quartz runs them as before
 * and AX registers nothing.
 */
class QuartzAdoptionTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AxAutoConfiguration.class, QuartzAutoConfiguration.class, QuartzAdoptionAutoConfiguration.class));

    /** What the jobs saw; a bean, autowired into them. */
    static final class Runs {
        final List<JobExecutionContext> contexts = new CopyOnWriteArrayList<>();
        final List<String> names = new CopyOnWriteArrayList<>();
    }

    /** Records each run, with the {@code name} the merged data map gives its property. */
    static final class GreetingJob implements Job {
        @Autowired
        Runs runs;

        private String name;

        public void setName(String name) {
            this.name = name;
        }

        @Override
        public void execute(JobExecutionContext context) {
            runs.names.add(String.valueOf(name));
            runs.contexts.add(context);
        }
    }

    /** Asks to be refired until its third try, which succeeds. */
    static final class RefiringJob implements Job {
        @Autowired
        Runs runs;

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            runs.contexts.add(context);
            if (context.getRefireCount() < 2) {
                throw new JobExecutionException("not yet", true);
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @Bean
        Runs runs() {
            return new Runs();
        }

        @Bean
        JobDetail greetingJob() {
            return JobBuilder.newJob(GreetingJob.class)
                    .withIdentity("greeting")
                    .usingJobData("greeting", "hello")
                    .usingJobData("name", "job")
                    .storeDurably()
                    .build();
        }

        @Bean
        Trigger everySecond(JobDetail greetingJob) {
            return TriggerBuilder.newTrigger()
                    .forJob(greetingJob)
                    .withIdentity("every-second")
                    .usingJobData("name", "trigger")
                    .withSchedule(
                            CronScheduleBuilder.cronSchedule("* * * * * ?").withMisfireHandlingInstructionDoNothing())
                    .build();
        }

        @Bean
        Trigger everyHour(JobDetail greetingJob) {
            return TriggerBuilder.newTrigger()
                    .forJob(greetingJob)
                    .withIdentity("every-hour", "slow")
                    .withPriority(3)
                    .withSchedule(SimpleScheduleBuilder.repeatHourlyForever())
                    .startAt(java.util.Date.from(java.time.Instant.now().plus(Duration.ofMinutes(30))))
                    .build();
        }

        @Bean
        WeeklyCalendar weekdays() {
            WeeklyCalendar weekdays = new WeeklyCalendar(TimeZone.getTimeZone("Europe/Paris"));
            weekdays.setDayExcluded(java.util.Calendar.SATURDAY, true);
            weekdays.setDayExcluded(java.util.Calendar.SUNDAY, true);
            return weekdays;
        }

        @Bean
        Trigger workdays(JobDetail greetingJob) {
            return TriggerBuilder.newTrigger()
                    .forJob(greetingJob)
                    .withIdentity("workdays")
                    .modifiedByCalendar("weekdays")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 9 * * ?")
                            .inTimeZone(TimeZone.getTimeZone("Europe/Paris")))
                    .build();
        }

        @Bean
        JobDetail refiringJob() {
            return JobBuilder.newJob(RefiringJob.class)
                    .withIdentity("refiring")
                    .storeDurably()
                    .build();
        }
    }

    @Test
    void eachTriggerBecomesAnAxTaskAndQuartzSchedulesNoneOfThem() {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues("ax.adopt.quartz=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEngine engine = context.getBean(AxEngine.class);
                    AxTask cron = engine.task("quartz:DEFAULT.every-second").orElseThrow();
                    assertThat(cron.type()).isEqualTo("QUARTZ");
                    assertThat(cron.trigger()).isInstanceOf(CronTrigger.class);
                    assertThat(cron.misfire()).isEqualTo(MisfirePolicy.SKIP);
                    assertThat(cron.concurrent()).isTrue();
                    assertThat(cron.priority()).as("Quartz's default priority").isEqualTo(5);
                    assertThat(cron.timeout()).as("ax.adopt.timeout").isEqualTo(Duration.ofHours(1));
                    AxTask simple = engine.task("quartz:slow.every-hour").orElseThrow();
                    assertThat(simple.trigger()).isInstanceOfSatisfying(IntervalTrigger.class, t -> {
                        assertThat(t.period()).isEqualTo(Duration.ofHours(1));
                        assertThat(t.fixedDelay()).isFalse();
                        assertThat(t.initialDelay()).isBetween(Duration.ofMinutes(29), Duration.ofMinutes(30));
                    });
                    assertThat(simple.priority()).isEqualTo(3);
                    assertThat(engine.task("quartz:DEFAULT.refiring")
                                    .orElseThrow()
                                    .trigger())
                            .as("a durable job without a trigger runs on demand")
                            .isEqualTo(OnDemandTrigger.INSTANCE);
                    assertThat(engine.task("quartz:DEFAULT.workdays")
                                    .orElseThrow()
                                    .trigger())
                            .as("the weekly calendar written into the expression")
                            .isEqualTo(CronTrigger.of("0 0 9 ? * 2,3,4,5,6", ZoneId.of("Europe/Paris")));
                    assertThat(context.getBean(AdoptedTasks.class).origin("quartz:DEFAULT.every-second"))
                            .hasValue("Quartz trigger DEFAULT.every-second of job DEFAULT.greeting");

                    Scheduler quartz = context.getBean(Scheduler.class);
                    assertThat(quartz.isStarted()).isTrue();
                    assertThat(quartz.getTriggerKeys(GroupMatcher.anyTriggerGroup()))
                            .isEmpty();
                    assertThat(quartz.getJobKeys(GroupMatcher.anyJobGroup())).isEmpty();
                });
    }

    @Test
    void theJobsRunThroughAxWithTheirContextAndMergedDataMap() {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues("ax.adopt.quartz=true")
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    Runs runs = context.getBean(Runs.class);
                    await().atMost(BOUND).until(() -> runs.contexts.size() >= 2);
                    JobExecutionContext second = runs.contexts.get(1);
                    TaskInstance instance =
                            engine.store().find(second.getFireInstanceId()).orElseThrow();
                    assertThat(instance.taskName()).isEqualTo("quartz:DEFAULT.every-second");
                    assertThat(second.getScheduledFireTime().toInstant()).isEqualTo(instance.scheduledTime());
                    assertThat(second.getFireTime()).isAfterOrEqualTo(second.getScheduledFireTime());
                    assertThat(second.getNextFireTime().toInstant())
                            .isEqualTo(instance.scheduledTime().plusSeconds(1));
                    assertThat(second.getPreviousFireTime()).isNotNull();
                    assertThat(second.getPreviousFireTime()).isBefore(second.getScheduledFireTime());
                    assertThat(second.getMergedJobDataMap().getWrappedMap())
                            .containsEntry("greeting", "hello")
                            .containsEntry("name", "trigger")
                            .doesNotContainKey("jobDetail");
                    assertThat(runs.names).startsWith("trigger", "trigger");
                    await().atMost(BOUND)
                            .until(() -> engine.store()
                                    .find(second.getFireInstanceId())
                                    .map(i -> i.state() == InstanceState.SUCCESS)
                                    .orElse(false));
                });
    }

    @Test
    void aRefireRequestRetriesTheRunAtOnceWithItsRefireCount() {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues("ax.adopt.quartz=true")
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    Runs runs = context.getBean(Runs.class);
                    String id = engine.triggerNow("quartz:DEFAULT.refiring");
                    await().atMost(BOUND)
                            .until(() -> engine.store()
                                    .find(id)
                                    .map(i -> i.state() == InstanceState.SUCCESS)
                                    .orElse(false));
                    assertThat(engine.store().find(id).orElseThrow().attempt()).isEqualTo(3);
                    assertThat(runs.contexts)
                            .filteredOn(c -> id.equals(c.getFireInstanceId()))
                            .extracting(JobExecutionContext::getRefireCount)
                            .containsExactly(0, 1, 2);
                });
    }

    @Test
    void aRunOnDemandCarriesItsParametersInTheMergedDataMap() {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues("ax.adopt.quartz=true")
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    Runs runs = context.getBean(Runs.class);
                    String id = engine.triggerNow(
                            "quartz:DEFAULT.every-hour".replace("DEFAULT", "slow"), Map.of("name", "operator"));
                    await().atMost(BOUND)
                            .until(() -> runs.contexts.stream().anyMatch(c -> id.equals(c.getFireInstanceId())));
                    JobExecutionContext run = runs.contexts.stream()
                            .filter(c -> id.equals(c.getFireInstanceId()))
                            .findFirst()
                            .orElseThrow();
                    assertThat(run.getMergedJobDataMap().getString("name")).isEqualTo("operator");
                    assertThat(run.getTrigger().getKey().getGroup()).isEqualTo("MANUAL_TRIGGER");
                });
    }

    @Test
    void anApplicationWithoutQuartzStartsWithThePropertyAndAdoptsNothing() {
        runner.withClassLoader(new FilteredClassLoader(
                        "org.quartz", "org.springframework.scheduling.quartz", "org.springframework.boot.quartz"))
                .withPropertyValues("ax.adopt.quartz=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(AxEngine.class);
                    assertThat(context).doesNotHaveBean(QuartzJobExecutor.class);
                    assertThat(context).doesNotHaveBean(QuartzAdoption.class);
                });
    }

    @Test
    void withoutThePropertyQuartzFiresTheJobsItselfAndAxRegistersNothing() {
        runner.withUserConfiguration(Jobs.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(QuartzJobExecutor.class);
            AxEngine engine = context.getBean(AxEngine.class);
            assertThat(engine.tasks()).noneMatch(t -> t.name().startsWith("quartz:"));
            Scheduler quartz = context.getBean(Scheduler.class);
            assertThat(quartz.getTriggerKeys(GroupMatcher.anyTriggerGroup()))
                    .extracting(Object::toString)
                    .containsExactlyInAnyOrder("DEFAULT.every-second", "slow.every-hour", "DEFAULT.workdays");
            Runs runs = context.getBean(Runs.class);
            await().atMost(BOUND).until(() -> !runs.contexts.isEmpty());
            assertThat(engine.store().find(runs.contexts.get(0).getFireInstanceId()))
                    .as("a run of Quartz's, not an AX instance")
                    .isEmpty();
        });
    }
}
