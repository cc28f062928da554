package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.adopt.quartz.QuartzImportReport.Outcome;
import io.ax.autoconfigure.adopt.quartz.QuartzImportReport.TriggerEntry;
import io.ax.core.TaskDefinition;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.calendar.WeeklyCalendar;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredResult;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A Quartz JDBC store filled by Quartz itself (its own tables, on PostgreSQL and MariaDB) is imported: a dry run
 * reports and writes nothing; an import creates the AX tasks with Quartz's next fire times, keeps paused triggers
 * paused, reports and leaves to Quartz what AX cannot run, and takes the imported triggers out of Quartz's hands, even
 * one a Quartz node had already acquired for its next fire.
 */
class QuartzStoreImportTest {

    /** A job that does nothing: the import reads its class, no test runs it. */
    public static final class NoopJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {}
    }

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final ApplicationContextRunner ax = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class, QuartzAdoptionAutoConfiguration.class))
            .withPropertyValues("ax.adopt.quartz=true");

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"POSTGRESQL", "MARIADB"})
    void aDryRunReportsAndAnImportKeepsNextFireTimesAndPauses(TestDatabase database) throws Exception {
        try (QuartzStores store = new QuartzStores(database)) {
            Scheduler quartz = store.scheduler("filler");
            Map<String, Instant> quartzNext;
            try {
                fill(quartz);
                quartzNext = Map.of(
                        "nightly", next(quartz, "nightly"),
                        "every-7-minutes", next(quartz, "every-7-minutes"),
                        "weekdays", next(quartz, "weekdays"));
            } finally {
                quartz.shutdown();
            }
            QuartzStoreImport.Request dryRun =
                    new QuartzStoreImport.Request(store.prefix, store.schedulerName, false, false);

            ax.run(context -> {
                AxEngine engine = context.getBean(AxEngine.class);
                QuartzStoreImport importer = context.getBean(QuartzStoreImport.class);

                QuartzImportReport report = importer.run(store.dataSource, dryRun);
                assertThat(report.applied()).isFalse();
                Map<String, TriggerEntry> byTrigger = byTrigger(report);
                assertThat(byTrigger.keySet())
                        .containsExactlyInAnyOrder(
                                "DEFAULT.nightly",
                                "DEFAULT.every-7-minutes",
                                "DEFAULT.weekdays",
                                "DEFAULT.on-hold",
                                "DEFAULT.three-times");
                assertThat(byTrigger.get("DEFAULT.three-times").outcome()).isEqualTo(Outcome.REFUSED);
                assertThat(byTrigger.get("DEFAULT.three-times").note()).contains("repeatCount");
                assertThat(report.jobsWithoutTriggers()).containsExactly("DEFAULT.on-demand");
                assertThat(engine.list()).as("a dry run registers nothing").isEmpty();
                assertThat(store.state("nightly"))
                        .as("a dry run writes nothing")
                        .isEqualTo("WAITING");
                assertThat(store.state("on-hold")).isEqualTo("PAUSED");

                QuartzImportReport applied = importer.run(
                        store.dataSource,
                        new QuartzStoreImport.Request(store.prefix, store.schedulerName, false, true));
                assertThat(applied.applied()).isTrue();
                assertThat(applied.imported()).isEqualTo(4);
                assertThat(applied.refused()).isEqualTo(1);
                Map<String, TriggerEntry> done = byTrigger(applied);
                quartzNext.forEach((trigger, next) -> {
                    TriggerEntry entry = done.get("DEFAULT." + trigger);
                    assertThat(entry.outcome()).isEqualTo(Outcome.IMPORTED);
                    assertThat(entry.quartzNextFire()).isEqualTo(next);
                    assertThat(entry.axNextFire()).isEqualTo(next);
                    await().atMost(BOUND)
                            .untilAsserted(() -> assertThat(plannedFire(engine, entry.task()))
                                    .as("AX plans the first fire of %s at Quartz's next fire time", trigger)
                                    .contains(next));
                });
                assertThat(done.get("DEFAULT.nightly").schedule()).contains("0 0 3 * * ?");
                assertThat(done.get("DEFAULT.weekdays").schedule())
                        .as("the weekly calendar is written into the expression")
                        .contains("? * 2,3,4,5,6");
                assertThat(engine.list())
                        .extracting(TaskDefinition::name)
                        .containsExactlyInAnyOrder(
                                "quartz:DEFAULT.nightly",
                                "quartz:DEFAULT.every-7-minutes",
                                "quartz:DEFAULT.weekdays",
                                "quartz:DEFAULT.on-hold");
                assertThat(done.get("DEFAULT.on-hold").paused()).isTrue();
                assertThat(engine.isPaused("quartz:DEFAULT.on-hold")).isTrue();
                assertThat(plannedFire(engine, "quartz:DEFAULT.on-hold")).isEmpty();
                assertThat(store.state("nightly")).isEqualTo(QuartzStoreReader.IMPORTED);
                assertThat(store.state("on-hold")).isEqualTo(QuartzStoreReader.IMPORTED);
                assertThat(store.state("three-times"))
                        .as("what AX cannot run stays Quartz's")
                        .isEqualTo("WAITING");

                QuartzImportReport again = importer.run(store.dataSource, dryRun);
                assertThat(byTrigger(again).get("DEFAULT.nightly").outcome()).isEqualTo(Outcome.ALREADY_IMPORTED);
            });
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"POSTGRESQL", "MARIADB"})
    void aTriggerQuartzAcquiredBeforeTheImportIsNotFiredByQuartz(TestDatabase database) throws Exception {
        try (QuartzStores store = new QuartzStores(database)) {
            JobStoreTX quartz = store.jobStore("quartz-1");
            try {
                JobDetail report =
                        JobBuilder.newJob(NoopJob.class).withIdentity("report").build();
                // half an hour ahead, so that the fire time is still to come when the import reads it
                int minute = (java.time.LocalTime.now().getMinute() + 30) % 60;
                OperableTrigger hourly = (OperableTrigger) TriggerBuilder.newTrigger()
                        .withIdentity("hourly")
                        .forJob(report)
                        .withSchedule(CronScheduleBuilder.cronSchedule("0 " + minute + " * * * ?"))
                        .build();
                Date next = hourly.computeFirstFireTime(null);
                quartz.storeJobAndTrigger(report, hourly);
                // AX refuses it (a repeat count): it stays Quartz's, so the same acquisition shows Quartz firing it
                JobDetail thrice =
                        JobBuilder.newJob(NoopJob.class).withIdentity("thrice").build();
                OperableTrigger threeTimes = (OperableTrigger) TriggerBuilder.newTrigger()
                        .withIdentity("three-times")
                        .forJob(thrice)
                        .startAt(next)
                        .withSchedule(SimpleScheduleBuilder.repeatHourlyForTotalCount(3))
                        .build();
                threeTimes.computeFirstFireTime(null);
                quartz.storeJobAndTrigger(thrice, threeTimes);

                // what a scheduler's thread does ahead of a fire time: acquire, then wait for the time to come
                List<OperableTrigger> acquired = quartz.acquireNextTriggers(next.getTime(), 2, 0);
                assertThat(acquired)
                        .extracting(t -> t.getKey().getName())
                        .containsExactlyInAnyOrder("hourly", "three-times");
                assertThat(store.state("hourly")).isEqualTo("ACQUIRED");

                ax.run(context -> {
                    QuartzImportReport applied = context.getBean(QuartzStoreImport.class)
                            .run(
                                    store.dataSource,
                                    new QuartzStoreImport.Request(store.prefix, store.schedulerName, false, true));
                    TriggerEntry entry = byTrigger(applied).get("DEFAULT.hourly");
                    assertThat(entry.quartzState()).isEqualTo("ACQUIRED");
                    assertThat(entry.outcome()).isEqualTo(Outcome.IMPORTED);
                    assertThat(entry.axNextFire()).isEqualTo(next.toInstant());
                    assertThat(byTrigger(applied).get("DEFAULT.three-times").outcome())
                            .isEqualTo(Outcome.REFUSED);

                    // the fire time came: Quartz's thread fires what it acquired
                    Map<String, TriggerFiredResult> fired = new HashMap<>();
                    List<TriggerFiredResult> results = quartz.triggersFired(acquired);
                    for (int i = 0; i < acquired.size(); i++) {
                        fired.put(acquired.get(i).getKey().getName(), results.get(i));
                    }
                    assertThat(fired.get("hourly").getTriggerFiredBundle())
                            .as("Quartz drops the imported trigger it had acquired")
                            .isNull();
                    assertThat(fired.get("hourly").getException()).isNull();
                    assertThat(fired.get("three-times").getTriggerFiredBundle())
                            .as("Quartz fires the trigger it still owns")
                            .isNotNull();
                    assertThat(store.state("hourly")).isEqualTo(QuartzStoreReader.IMPORTED);
                    AxEngine engine = context.getBean(AxEngine.class);
                    await().atMost(BOUND)
                            .untilAsserted(() -> assertThat(plannedFire(engine, "quartz:DEFAULT.hourly"))
                                    .as("AX fires it at the time Quartz had acquired it for")
                                    .contains(next.toInstant()));
                    assertThat(context.getBean(AdoptedTasks.class).origin("quartz:DEFAULT.hourly"))
                            .contains("Quartz trigger DEFAULT.hourly of job DEFAULT.report (imported)");
                });
            } finally {
                quartz.shutdown();
            }
        }
    }

    private static void fill(Scheduler quartz) throws Exception {
        JobDetail reports = JobBuilder.newJob(NoopJob.class)
                .withIdentity("reports")
                .usingJobData("format", "pdf")
                .usingJobData("copies", 2)
                .storeDurably()
                .build();
        quartz.addJob(reports, false);
        quartz.scheduleJob(TriggerBuilder.newTrigger()
                .withIdentity("nightly")
                .forJob(reports)
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0 3 * * ?"))
                .build());
        quartz.addCalendar("workdays", new WeeklyCalendar(), false, false);
        quartz.scheduleJob(TriggerBuilder.newTrigger()
                .withIdentity("weekdays")
                .forJob(reports)
                .modifiedByCalendar("workdays")
                .withSchedule(CronScheduleBuilder.cronSchedule("0 30 9 * * ?"))
                .build());
        quartz.scheduleJob(
                JobBuilder.newJob(NoopJob.class).withIdentity("sync").build(),
                TriggerBuilder.newTrigger()
                        .withIdentity("every-7-minutes")
                        .startAt(new java.util.Date(System.currentTimeMillis() + 123_457))
                        .withSchedule(SimpleScheduleBuilder.repeatMinutelyForever(7)
                                .withMisfireHandlingInstructionNextWithRemainingCount())
                        .build());
        quartz.scheduleJob(
                JobBuilder.newJob(NoopJob.class).withIdentity("cleanup").build(),
                TriggerBuilder.newTrigger()
                        .withIdentity("on-hold")
                        .withSchedule(CronScheduleBuilder.cronSchedule("0 15 * * * ?"))
                        .build());
        quartz.pauseTrigger(TriggerKey.triggerKey("on-hold"));
        quartz.scheduleJob(
                JobBuilder.newJob(NoopJob.class).withIdentity("thrice").build(),
                TriggerBuilder.newTrigger()
                        .withIdentity("three-times")
                        .startAt(new java.util.Date(System.currentTimeMillis() + 3_600_000))
                        .withSchedule(SimpleScheduleBuilder.repeatHourlyForTotalCount(3))
                        .build());
        quartz.addJob(
                JobBuilder.newJob(NoopJob.class)
                        .withIdentity("on-demand")
                        .storeDurably()
                        .build(),
                false);
    }

    private static Instant next(Scheduler quartz, String trigger) throws Exception {
        return quartz.getTrigger(TriggerKey.triggerKey(trigger))
                .getNextFireTime()
                .toInstant();
    }

    private static Map<String, TriggerEntry> byTrigger(QuartzImportReport report) {
        return report.triggers().stream().collect(Collectors.toMap(TriggerEntry::trigger, Function.identity()));
    }

    /** The scheduled time of the task's pending series fire, if it has one. */
    private static Optional<Instant> plannedFire(AxEngine engine, String task) {
        return engine.store().findByTask(task, 10).stream()
                .filter(i -> !i.state().isFinal())
                .map(TaskInstance::scheduledTime)
                .findFirst();
    }
}
