package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.adopt.quartz.QuartzImportReport.Outcome;
import io.ax.autoconfigure.adopt.quartz.QuartzImportReport.TriggerEntry;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.engine.AxEngine;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The switch of a running system: a clustered Quartz scheduler fires a cron trigger every second and a simple trigger
 * every two seconds from its JDBC store, and an AX node on the same database imports the store while Quartz goes on
 * running. Judged from the jobs' own records: Quartz ran every fire before the trigger's next fire time as the import
 * read it, AX every fire from there on, no fire ran twice or on both, none in the switch was missed, and Quartz, still
 * running, ran none after.
 */
class QuartzImportSwitchOverTest {

    private static final String PREFIX = "axqs_";
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String QUARTZ = "quartz";
    private static final String AX_NODE = "ax-1";

    /**
     * A run of a job: the job, the group of the trigger it was handed ({@code MANUAL_TRIGGER} for a run on demand),
     * the fire time it was scheduled for, and who ran it.
     */
    record Run(String job, String triggerGroup, Instant scheduled, String runner) {}

    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    /** Records each run; AX's job factory autowires it, as Spring's does, and Quartz's own leaves it bare. */
    public static final class RecordingJob implements Job {
        @Autowired(required = false)
        AxEngine engine;

        @Override
        public void execute(JobExecutionContext context) {
            RUNS.add(new Run(
                    context.getJobDetail().getKey().getName(),
                    context.getTrigger().getKey().getGroup(),
                    context.getScheduledFireTime().toInstant(),
                    engine == null ? QUARTZ : engine.nodeId()));
        }
    }

    private static ApplicationContextRunner axNode(TestDatabase db) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class,
                        AxAutoConfiguration.class,
                        QuartzAdoptionAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + db.url(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "ax.adopt.quartz=true",
                        "ax.node-id=" + AX_NODE,
                        "ax.jdbc.table-prefix=" + PREFIX,
                        "ax.cluster.heartbeat=100ms",
                        "ax.cluster.lease=1s",
                        "ax.cluster.ack-timeout=300ms",
                        "ax.cluster.poll-interval=50ms");
    }

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"POSTGRESQL", "MARIADB"})
    void afterTheImportEveryFireRunsOnceOnAxAndNoneOnQuartz(TestDatabase db) throws Exception {
        db.dataSource(); // skips (or fails) here when the database does not answer
        db.migrate(PREFIX);
        RUNS.clear();
        try (QuartzStores store = new QuartzStores(db)) {
            Scheduler quartz = store.scheduler("quartz-1");
            try {
                quartz.scheduleJob(
                        JobBuilder.newJob(RecordingJob.class)
                                .withIdentity("ticker")
                                .build(),
                        TriggerBuilder.newTrigger()
                                .withIdentity("every-second")
                                .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?"))
                                .build());
                quartz.scheduleJob(
                        JobBuilder.newJob(RecordingJob.class)
                                .withIdentity("pulse")
                                .build(),
                        TriggerBuilder.newTrigger()
                                .withIdentity("every-2-seconds")
                                .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                                        .withIntervalInMilliseconds(2000)
                                        .repeatForever())
                                .build());
                quartz.start();
                await().atMost(BOUND)
                        .until(() -> runs("ticker", QUARTZ).size() >= 3
                                && runs("pulse", QUARTZ).size() >= 2);

                AtomicReference<QuartzImportReport> imported = new AtomicReference<>();
                axNode(db).run(ax -> {
                    assertThat(ax).hasNotFailed();
                    QuartzImportReport report =
                            ax.getBean(QuartzImportOperation.class).run(store.prefix, store.schedulerName, true);
                    imported.set(report);
                    assertThat(report.triggers())
                            .allSatisfy(t -> assertThat(t.outcome()).isEqualTo(Outcome.IMPORTED));
                    assertThat(report.imported()).isEqualTo(2);
                    assertThat(ax.getBean(AdoptedTasks.class).origin("quartz:DEFAULT.every-second"))
                            .contains("Quartz trigger DEFAULT.every-second of job DEFAULT.ticker (imported)");

                    // AX runs the next seconds while Quartz, still running, has the chance to run them too
                    await().atMost(BOUND)
                            .until(() -> runs("ticker", AX_NODE).size() >= 5
                                    && runs("pulse", AX_NODE).size() >= 3);
                    assertThat(quartz.isStarted() && !quartz.isInStandbyMode() && !quartz.isShutdown())
                            .isTrue();
                    quartz.shutdown(true); // the runs it started end before they are judged
                });
                QuartzImportReport report = imported.get();
                judge("ticker", entry(report, "DEFAULT.every-second"), Duration.ofSeconds(1));
                judge("pulse", entry(report, "DEFAULT.every-2-seconds"), Duration.ofSeconds(2));
                assertThat(store.state("every-second")).isEqualTo(QuartzStoreReader.IMPORTED);
            } finally {
                quartz.shutdown(true);
            }
        }
    }

    /**
     * The runs of one job: Quartz's end at the trigger's next fire time as the import read it, AX's start there, and
     * together they are every fire time of the trigger, each once.
     */
    private static void judge(String job, TriggerEntry entry, Duration period) {
        Instant switchedAt = entry.quartzNextFire();
        List<Instant> onQuartz = runs(job, QUARTZ).stream().map(Run::scheduled).toList();
        List<Run> onAx = runs(job, AX_NODE);
        List<Instant> axFires = onAx.stream().map(Run::scheduled).toList();
        assertThat(onAx)
                .as("%s: AX ran only the trigger's fires, none on demand", job)
                .noneMatch(r -> r.triggerGroup().equals("MANUAL_TRIGGER"));
        assertThat(onQuartz)
                .as("%s: Quartz ran no fire from the switch on", job)
                .allMatch(switchedAt::isAfter);
        assertThat(onQuartz.get(onQuartz.size() - 1))
                .as("%s: Quartz ran every fire before the switch", job)
                .isEqualTo(switchedAt.minus(period));
        assertEvenlySpaced(job + " on Quartz", onQuartz, period);

        // also when that time passed before AX had the task: it is then a late fire, with its own fire time
        assertThat(axFires).as("%s: AX's first fire is the next one", job).startsWith(switchedAt);
        assertThat(axFires).as("%s: no fire ran twice on AX", job).doesNotHaveDuplicates();
        assertEvenlySpaced(job + " on AX", axFires, period);
    }

    /** The fire times, in order, one period apart: none missed, none twice. */
    private static void assertEvenlySpaced(String what, List<Instant> fires, Duration period) {
        for (int i = 1; i < fires.size(); i++) {
            assertThat(Duration.between(fires.get(i - 1), fires.get(i)))
                    .as("%s: fire %s follows %s", what, fires.get(i), fires.get(i - 1))
                    .isEqualTo(period);
        }
    }

    /** The runs of a job by one runner, in the order of their fire times. */
    private static List<Run> runs(String job, String runner) {
        return RUNS.stream()
                .filter(r -> r.job().equals(job) && r.runner().equals(runner))
                .sorted(Comparator.comparing(Run::scheduled))
                .toList();
    }

    private static TriggerEntry entry(QuartzImportReport report, String trigger) {
        return report.triggers().stream()
                .filter(t -> t.trigger().equals(trigger))
                .findFirst()
                .orElseThrow();
    }
}
