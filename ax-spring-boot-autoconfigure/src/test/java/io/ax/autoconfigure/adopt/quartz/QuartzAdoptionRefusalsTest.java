package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.DailyTimeIntervalScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobListener;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.calendar.HolidayCalendar;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

/** Each Quartz feature AX cannot run as Quartz would fails start-up, saying which and why; none is left out quietly. */
class QuartzAdoptionRefusalsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AxAutoConfiguration.class, QuartzAutoConfiguration.class, QuartzAdoptionAutoConfiguration.class))
            .withPropertyValues("ax.adopt.quartz=true");

    static final class NoopJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {}
    }

    @PersistJobDataAfterExecution
    static final class KeepingJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {}
    }

    static JobDetail job(String name) {
        return JobBuilder.newJob(NoopJob.class)
                .withIdentity(name)
                .storeDurably()
                .build();
    }

    static TriggerBuilder<Trigger> triggerOf(JobDetail job, String name) {
        return TriggerBuilder.newTrigger().forJob(job).withIdentity(name);
    }

    @Configuration(proxyBeanMethods = false)
    static class EndTime {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger nightly(JobDetail report) {
            return triggerOf(report, "nightly")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"))
                    .endAt(Date.from(Instant.parse("2040-01-01T00:00:00Z")))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FiniteRepeat {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger thrice(JobDetail report) {
            return triggerOf(report, "thrice")
                    .withSchedule(SimpleScheduleBuilder.repeatMinutelyForTotalCount(3))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RescheduleNow {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger often(JobDetail report) {
            return triggerOf(report, "often")
                    .withSchedule(SimpleScheduleBuilder.repeatMinutelyForever()
                            .withMisfireHandlingInstructionNowWithExistingCount())
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WithCalendar {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        HolidayCalendar holidays() {
            HolidayCalendar holidays = new HolidayCalendar();
            holidays.addExcludedDate(Date.from(Instant.parse("2030-12-25T00:00:00Z")));
            return holidays;
        }

        @Bean
        Trigger workdays(JobDetail report) {
            return triggerOf(report, "workdays")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 9 * * ?"))
                    .modifiedByCalendar("holidays")
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MissingCalendar {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger holidays(JobDetail report) {
            return triggerOf(report, "holidays")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 9 * * ?"))
                    .modifiedByCalendar("nowhere")
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class DailyInterval {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger office(JobDetail report) {
            return triggerOf(report, "office")
                    .withSchedule(DailyTimeIntervalScheduleBuilder.dailyTimeIntervalSchedule())
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PriorityOutOfRange {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger urgent(JobDetail report) {
            return triggerOf(report, "urgent")
                    .withPriority(5000)
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 9 * * ?"))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NotDurable {
        @Bean
        JobDetail orphan() {
            return JobBuilder.newJob(NoopJob.class).withIdentity("orphan").build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Recovery {
        @Bean
        JobDetail report() {
            return JobBuilder.newJob(NoopJob.class)
                    .withIdentity("recovering")
                    .requestRecovery()
                    .storeDurably()
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnkeepableData {
        @Bean
        JobDetail keeping() {
            return JobBuilder.newJob(KeepingJob.class)
                    .withIdentity("keeping")
                    .usingJobData(new org.quartz.JobDataMap(java.util.Map.of("since", new Date(0))))
                    .storeDurably()
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadName {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger spaced(JobDetail report) {
            return triggerOf(report, "every night")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SameJobKey {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        JobDetail reportAgain() {
            return job("report");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SameTriggerKey {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        Trigger nightly(JobDetail report) {
            return triggerOf(report, "nightly")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"))
                    .build();
        }

        @Bean
        Trigger nightlyAgain(JobDetail report) {
            return triggerOf(report, "nightly")
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 3 * * ?"))
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Listener {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        SchedulerFactoryBeanCustomizer listening() {
            return factory -> factory.setGlobalJobListeners(new JobListener() {
                @Override
                public String getName() {
                    return "audit";
                }

                @Override
                public void jobToBeExecuted(JobExecutionContext context) {}

                @Override
                public void jobExecutionVetoed(JobExecutionContext context) {}

                @Override
                public void jobWasExecuted(
                        JobExecutionContext context, org.quartz.JobExecutionException jobException) {}
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnScheduler {
        @Bean
        JobDetail report() {
            return job("report");
        }

        @Bean
        SchedulerFactoryBean quartzScheduler(JobDetail report) {
            SchedulerFactoryBean factory = new SchedulerFactoryBean();
            factory.setJobDetails(report);
            return factory;
        }
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        EndTime.class,
                        List.of(),
                        "Invalid Quartz trigger DEFAULT.nightly of job DEFAULT.report: attribute 'endTime': it stops"
                                + " firing at 2040-01-01T00:00:00Z, and an AX series has no end"),
                Arguments.of(
                        FiniteRepeat.class,
                        List.of(),
                        "attribute 'repeatCount': it fires 3 time(s), and an AX series fires until it is paused"),
                Arguments.of(
                        RescheduleNow.class,
                        List.of(),
                        "attribute 'misfireInstruction': instruction 2 fires at once and then counts the interval"
                                + " from that late fire"),
                Arguments.of(
                        WithCalendar.class,
                        List.of(),
                        "attribute 'calendarName': calendar 'holidays' (a HolidayCalendar): it excludes times from"
                                + " the trigger's fires, and AX writes only a WeeklyCalendar or a MonthlyCalendar into a"
                                + " cron expression"),
                Arguments.of(
                        MissingCalendar.class,
                        List.of(),
                        "attribute 'calendarName': it names calendar 'nowhere', and there is no Calendar bean"),
                Arguments.of(
                        DailyInterval.class,
                        List.of(),
                        "attribute 'class': a org.quartz.impl.triggers.DailyTimeIntervalTriggerImpl has no AX trigger"),
                Arguments.of(
                        PriorityOutOfRange.class,
                        List.of(),
                        "attribute 'priority': 5000 is outside AX's priorities, -1000 to 1000"),
                Arguments.of(
                        NotDurable.class,
                        List.of(),
                        "Invalid Quartz job DEFAULT.orphan: attribute 'durability': it has no trigger and is not"
                                + " durable"),
                Arguments.of(
                        Recovery.class,
                        List.of("ax.retry.takeovers=0"),
                        "attribute 'requestsRecovery': Quartz runs a job again when the node that ran it died"),
                Arguments.of(
                        UnkeepableData.class,
                        List.of(),
                        "attribute 'jobDataMap': entry 'since': a java.util.Date cannot be kept between runs"),
                Arguments.of(
                        BadName.class,
                        List.of(),
                        "attribute 'name': AX names its task 'quartz:DEFAULT.every night', and a task name has"),
                Arguments.of(
                        SameJobKey.class,
                        List.of(),
                        "Invalid Quartz job DEFAULT.report: attribute 'key': two JobDetail beans have this key"),
                Arguments.of(
                        SameTriggerKey.class,
                        List.of(),
                        "attribute 'name': the name 'quartz:DEFAULT.nightly' is already used by Quartz trigger"
                                + " DEFAULT.nightly of job DEFAULT.report"),
                Arguments.of(
                        Listener.class,
                        List.of(),
                        "Invalid Quartz job DEFAULT.report: attribute 'listeners': job listener 'audit' would hear its"
                                + " runs, and AX does not call Quartz's listeners"),
                Arguments.of(
                        OwnScheduler.class,
                        List.of(),
                        "attribute 'SchedulerFactoryBean': the application declares a Quartz scheduler of its own"),
                Arguments.of(
                        EndTime.class,
                        List.of("spring.quartz.auto-startup=false"),
                        "attribute 'spring.quartz.auto-startup': false leaves the jobs to be started by hand"),
                Arguments.of(
                        Recovery.class,
                        List.of("spring.quartz.startup-delay=10s"),
                        "attribute 'spring.quartz.startup-delay': AX fires the jobs it adopts from its start"),
                Arguments.of(
                        EndTime.class,
                        List.of("ax.adopt.timeout=0s"),
                        "Invalid ax.adopt settings: attribute 'ax.adopt.timeout': it must be a positive duration"),
                Arguments.of(
                        UnkeepableData.class,
                        List.of("spring.quartz.overwrite-existing-jobs=true"),
                        "attribute 'spring.quartz.overwrite-existing-jobs': true resets the data map"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void aFeatureAxCannotKeepFailsStartUpNamingIt(Class<?> configuration, List<String> properties, String message) {
        runner.withUserConfiguration(configuration)
                .withPropertyValues(properties.toArray(String[]::new))
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (!(failure instanceof InvalidJobDefinitionException) && failure.getCause() != null) {
                        failure = failure.getCause();
                    }
                    assertThat(failure)
                            .isInstanceOf(InvalidJobDefinitionException.class)
                            .hasMessageContaining(message);
                });
    }
}
