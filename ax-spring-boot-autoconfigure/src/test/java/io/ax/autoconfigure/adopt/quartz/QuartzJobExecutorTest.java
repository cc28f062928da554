package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxContext;
import io.ax.core.AxException;
import io.ax.core.AxResult;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.RetryNowException;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.TaskDataStore;
import io.ax.test.FakeClock;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;

/**
 * The executor runs an adopted job as Quartz would: a job made by Spring's job factory, a real context with the fire
 * times of the AX instance, the merged data map and the refire count; a data map kept between runs; Quartz's own
 * exceptions turned into AX's outcomes. Real store, real Quartz objects, a clock moved by hand.
 */
class QuartzJobExecutorTest {

    private static final Instant FIRE = Instant.parse("2030-01-01T10:05:00Z");

    private final FakeClock clock = new FakeClock(FIRE.plusSeconds(2));
    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final List<String> paused = new ArrayList<>();
    private final AnnotationConfigApplicationContext beans = new AnnotationConfigApplicationContext();
    private final Runs runs = new Runs();
    private final QuartzTaskMapping mapping =
            new QuartzTaskMapping(Duration.ofHours(1), RetryPolicy.none(), 3, Duration.ofSeconds(5));
    private QuartzJobExecutor executor;

    /** What the test jobs saw; a bean that Spring's job factory autowires into them. */
    static final class Runs {
        final List<JobExecutionContext> contexts = new CopyOnWriteArrayList<>();
        final List<String> targets = new CopyOnWriteArrayList<>();
    }

    /** Records its context; its {@code target} property comes from the merged data map. */
    static final class RecordingJob implements Job {
        @Autowired
        Runs runs;

        private String target;

        public void setTarget(String target) {
            this.target = target;
        }

        @Override
        public void execute(JobExecutionContext context) {
            runs.contexts.add(context);
            runs.targets.add(target);
            context.setResult("done for " + target);
        }
    }

    /** Counts its runs in its own data map, which Quartz keeps between them. */
    @PersistJobDataAfterExecution
    @DisallowConcurrentExecution
    static final class CountingJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            int count = context.getJobDetail().getJobDataMap().getInt("count");
            context.getJobDetail().getJobDataMap().put("count", count + 1);
            context.getJobDetail().getJobDataMap().put("last", context.getFireInstanceId());
        }
    }

    /** Counts like {@link CountingJob}, while another run of the job, on another node, writes the map first. */
    @PersistJobDataAfterExecution
    static final class RacedJob implements Job {
        @Autowired
        io.ax.core.store.InstanceStore store;

        @Override
        public void execute(JobExecutionContext context) {
            store.taskData()
                    .orElseThrow()
                    .write(
                            "quartz:DEFAULT.raced",
                            0,
                            JobDataCodec.encode(Map.of("count", 41)),
                            new TaskDataStore.Writer("other-instance", 1, FIRE));
            context.getJobDetail().getJobDataMap().put("count", 1);
        }
    }

    /** Fails as told by its data map: refire, unschedule the trigger or all of the job's, or plainly. */
    static final class FailingJob implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            String how = context.getMergedJobDataMap().getString("how");
            JobExecutionException e = new JobExecutionException("failed: " + how);
            switch (how) {
                case "refire" -> e.setRefireImmediately(true);
                case "unschedule" -> e.setUnscheduleFiringTrigger(true);
                case "unschedule-all" -> e.setUnscheduleAllTriggers(true);
                default -> throw new IllegalStateException("plain failure");
            }
            throw e;
        }
    }

    @AfterEach
    void close() {
        beans.close();
    }

    private QuartzJobExecutor executor() {
        return executor(store);
    }

    private QuartzJobExecutor executor(io.ax.core.store.InstanceStore on) {
        beans.registerBean(Runs.class, () -> runs);
        beans.registerBean(io.ax.core.store.InstanceStore.class, () -> store);
        beans.refresh();
        SpringBeanJobFactory factory = new SpringBeanJobFactory();
        factory.setApplicationContext(beans);
        executor = new QuartzJobExecutor(on, clock, factory, () -> null, paused::add, new AdoptedTasks());
        return executor;
    }

    private static Trigger cron(JobDetail job, String name) {
        return TriggerBuilder.newTrigger()
                .withIdentity(name, "reports")
                .forJob(job)
                .usingJobData("target", "trigger")
                .withPriority(7)
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0/5 * * * ?").inTimeZone(TimeZone.getTimeZone("UTC")))
                .startAt(Date.from(FIRE.minus(Duration.ofDays(1))))
                .build();
    }

    private AdoptedJob adopt(JobDetail job, Trigger trigger) {
        AdoptedJob adopted = mapping.map(job, trigger, null, 1, clock.instant());
        executor.add(adopted);
        return adopted;
    }

    /** An instance of the task in the store, as the engine writes a fire. */
    private String instance(String task, Instant time, InstanceOrigin origin, InstanceState state) {
        String id = UUID.randomUUID().toString();
        store.create(
                new TaskInstance(
                        id,
                        task,
                        time,
                        InstanceState.CREATED,
                        0,
                        "node-a",
                        time,
                        origin,
                        origin.isTriggerFire() ? TaskInstance.fireKey(time) : null),
                "test");
        if (state == InstanceState.SKIPPED) {
            store.transition(new Transition(id, InstanceState.CREATED, InstanceState.SCHEDULED, 0, "a", time, "test"));
            store.transition(new Transition(id, InstanceState.SCHEDULED, InstanceState.SKIPPED, 0, "a", time, "test"));
        }
        return id;
    }

    private static AxContext context(String task, String id, int attempt, Instant scheduled, Map<String, String> p) {
        return new AxContext() {
            @Override
            public byte[] payloadBytes() {
                return p.isEmpty() ? null : io.ax.core.engine.work.RunParams.encode(p);
            }

            @Override
            public String taskName() {
                return task;
            }

            @Override
            public String instanceId() {
                return id;
            }

            @Override
            public int attempt() {
                return attempt;
            }

            @Override
            public Instant scheduledTime() {
                return scheduled;
            }

            @Override
            public String nodeId() {
                return "node-a";
            }

            @Override
            public Map<String, String> params() {
                return p;
            }
        };
    }

    @Test
    void aFireGetsARealContextWithItsFireTimesTheMergedDataMapAndTheRefireCount() throws Exception {
        executor();
        JobDetail job = JobBuilder.newJob(RecordingJob.class)
                .withIdentity("report", "reports")
                .usingJobData("greeting", "hello")
                .usingJobData("target", "job")
                .build();
        AdoptedJob adopted = adopt(job, cron(job, "every5"));
        String task = adopted.task().name();
        instance(task, FIRE.minus(Duration.ofMinutes(15)), InstanceOrigin.SERIES, InstanceState.CREATED);
        instance(task, FIRE.minus(Duration.ofMinutes(10)), InstanceOrigin.SERIES, InstanceState.CREATED);
        instance(task, FIRE.minus(Duration.ofMinutes(5)), InstanceOrigin.SERIES, InstanceState.SKIPPED);
        instance(task, FIRE.minus(Duration.ofMinutes(2)), InstanceOrigin.ON_DEMAND, InstanceState.CREATED);
        instance(task, FIRE.plus(Duration.ofMinutes(5)), InstanceOrigin.SERIES, InstanceState.CREATED);
        String id = instance(task, FIRE, InstanceOrigin.SERIES, InstanceState.CREATED);

        AxResult result = executor.execute(adopted.task(), context(task, id, 3, FIRE, Map.of()));

        assertThat(result).isEqualTo(AxResult.success("done for trigger"));
        JobExecutionContext seen = runs.contexts.get(0);
        assertThat(seen.getFireTime()).isEqualTo(Date.from(FIRE.plusSeconds(2)));
        assertThat(seen.getScheduledFireTime()).isEqualTo(Date.from(FIRE));
        assertThat(seen.getPreviousFireTime())
                .as("the trigger's last fire that ran: not the skipped one, nor the run on demand after it")
                .isEqualTo(Date.from(FIRE.minus(Duration.ofMinutes(10))));
        assertThat(seen.getNextFireTime()).isEqualTo(Date.from(FIRE.plus(Duration.ofMinutes(5))));
        assertThat(seen.getTrigger().getNextFireTime()).isEqualTo(seen.getNextFireTime());
        assertThat(seen.getTrigger().getKey().toString()).isEqualTo("reports.every5");
        assertThat(seen.getTrigger().getPriority()).isEqualTo(7);
        assertThat(seen.getJobDetail().getKey().toString()).isEqualTo("reports.report");
        assertThat(seen.getMergedJobDataMap().getWrappedMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of("greeting", "hello", "target", "trigger"));
        assertThat(seen.getRefireCount()).as("attempt 3").isEqualTo(2);
        assertThat(seen.getFireInstanceId()).isEqualTo(id);
        assertThat(seen.isRecovering()).isFalse();
        assertThat(runs.targets)
                .as("the merged map applied to the job's properties")
                .containsExactly("trigger");
    }

    @Test
    void theFirstFireHasNoPreviousFireTime() throws Exception {
        executor();
        JobDetail job =
                JobBuilder.newJob(RecordingJob.class).withIdentity("first").build();
        AdoptedJob adopted = adopt(job, cron(job, "first-fire"));
        String id = instance(adopted.task().name(), FIRE, InstanceOrigin.SERIES, InstanceState.CREATED);

        executor.execute(adopted.task(), context(adopted.task().name(), id, 1, FIRE, Map.of()));

        assertThat(runs.contexts.get(0).getPreviousFireTime()).isNull();
        assertThat(runs.contexts.get(0).getRefireCount()).isZero();
    }

    @Test
    void aRunOnDemandGetsAOneShotTriggerWithItsParametersInTheMergedMap() throws Exception {
        executor();
        JobDetail job = JobBuilder.newJob(RecordingJob.class)
                .withIdentity("on-demand")
                .usingJobData("greeting", "hello")
                .storeDurably()
                .build();
        AdoptedJob adopted = mapping.onDemand(job);
        executor.add(adopted);
        String id = instance(adopted.task().name(), FIRE, InstanceOrigin.ON_DEMAND, InstanceState.CREATED);

        executor.execute(adopted.task(), context(adopted.task().name(), id, 1, FIRE, Map.of("target", "given")));

        JobExecutionContext seen = runs.contexts.get(0);
        assertThat(seen.getTrigger().getKey().getGroup()).isEqualTo("MANUAL_TRIGGER");
        assertThat(seen.getPreviousFireTime()).isNull();
        assertThat(seen.getNextFireTime()).isNull();
        assertThat(seen.getMergedJobDataMap().getWrappedMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of("greeting", "hello", "target", "given"));
        assertThat(runs.targets).containsExactly("given");
    }

    @Test
    void aJobThatPersistsItsDataMapReadsWhatTheLastSuccessfulRunWrote() throws Exception {
        executor();
        JobDetail job = JobBuilder.newJob(CountingJob.class)
                .withIdentity("counter")
                .usingJobData("count", 0)
                .build();
        AdoptedJob adopted = adopt(job, cron(job, "counting"));
        String task = adopted.task().name();
        for (int n = 0; n < 3; n++) {
            Instant at = FIRE.plus(Duration.ofMinutes(5L * n));
            String id = instance(task, at, InstanceOrigin.SERIES, InstanceState.CREATED);
            executor.execute(adopted.task(), context(task, id, 1, at, Map.of()));
        }

        TaskDataStore.TaskData stored =
                store.taskData().orElseThrow().read("quartz:DEFAULT.counter").orElseThrow();
        assertThat(stored.version()).isEqualTo(3);
        assertThat(JobDataCodec.decode(stored.value())).containsEntry("count", 3);
        assertThat(job.getJobDataMap().getInt("count"))
                .as("the bean's own map is left as it was")
                .isZero();
    }

    @Test
    void aRunWhoseDataMapCannotBeReadOrWrittenFailsAndTheStoredMapStaysAsItWas() throws Exception {
        FailingStore failing = new FailingStore(store);
        executor(failing);
        JobDetail job = JobBuilder.newJob(CountingJob.class)
                .withIdentity("fragile")
                .usingJobData("count", 0)
                .build();
        AdoptedJob adopted = adopt(job, cron(job, "fragile"));
        String task = adopted.task().name();
        TaskDataStore data = store.taskData().orElseThrow();
        executor.execute(adopted.task(), context(task, "run-1", 1, FIRE, Map.of()));

        failing.failWrites(1);
        assertThatThrownBy(() -> executor.execute(adopted.task(), context(task, "run-2", 1, FIRE, Map.of())))
                .isInstanceOf(FailingStore.InjectedFailure.class);
        failing.down();
        assertThatThrownBy(() -> executor.execute(adopted.task(), context(task, "run-3", 1, FIRE, Map.of())))
                .isInstanceOf(FailingStore.InjectedFailure.class);
        assertThat(data.read("quartz:DEFAULT.fragile").orElseThrow().version()).isEqualTo(1);

        failing.up();
        executor.execute(adopted.task(), context(task, "run-4", 1, FIRE, Map.of()));
        TaskDataStore.TaskData stored = data.read("quartz:DEFAULT.fragile").orElseThrow();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(JobDataCodec.decode(stored.value()))
                .containsEntry("count", 2)
                .containsEntry("last", "run-4");
    }

    @Test
    void aRunWhoseDataMapWasWrittenMeanwhileByAnotherInstanceFailsAndKeepsNothing() throws Exception {
        executor();
        JobDetail job = JobBuilder.newJob(RacedJob.class)
                .withIdentity("raced")
                .usingJobData("count", 0)
                .build();
        AdoptedJob adopted = adopt(job, cron(job, "raced"));
        String task = adopted.task().name();
        TaskDataStore data = store.taskData().orElseThrow();
        assertThatThrownBy(() -> executor.execute(adopted.task(), context(task, "this-instance", 1, FIRE, Map.of())))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("was written by instance other-instance (version 1) while this run ran from"
                        + " version 0; this run's changes were not kept");
        assertThat(JobDataCodec.decode(
                        data.read("quartz:DEFAULT.raced").orElseThrow().value()))
                .containsEntry("count", 41);
    }

    @Test
    void aRefireRequestRetriesAtOnceAndOtherFailuresFailTheAttempt() {
        executor();
        JobDetail refire = JobBuilder.newJob(FailingJob.class)
                .withIdentity("refire")
                .usingJobData("how", "refire")
                .build();
        AdoptedJob a = adopt(refire, cron(refire, "refire"));
        assertThatThrownBy(() -> executor.execute(a.task(), context(a.task().name(), "i-1", 1, FIRE, Map.of())))
                .isInstanceOf(RetryNowException.class)
                .hasMessageContaining("asked to be refired immediately: failed: refire")
                .hasCauseInstanceOf(JobExecutionException.class);

        JobDetail plain = JobBuilder.newJob(FailingJob.class)
                .withIdentity("plain")
                .usingJobData("how", "plain")
                .build();
        AdoptedJob b = adopt(plain, cron(plain, "plain"));
        assertThatThrownBy(() -> executor.execute(b.task(), context(b.task().name(), "i-2", 1, FIRE, Map.of())))
                .as("fails the attempt as it is, like any exception of an AX task")
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("plain failure");
        assertThat(paused).isEmpty();
    }

    @Test
    void anUnscheduleRequestPausesTheFiringTriggersTaskOrAllOfTheJobs() {
        executor();
        JobDetail one = JobBuilder.newJob(FailingJob.class)
                .withIdentity("one")
                .usingJobData("how", "unschedule")
                .build();
        AdoptedJob a = mapping.map(one, cron(one, "one-a"), null, 2, clock.instant());
        AdoptedJob b = mapping.map(one, cron(one, "one-b"), null, 2, clock.instant());
        executor.add(a);
        executor.add(b);
        assertThatThrownBy(() -> executor.execute(a.task(), context(a.task().name(), "i-1", 1, FIRE, Map.of())))
                .isInstanceOf(JobExecutionException.class);
        assertThat(paused).containsExactly("quartz:reports.one-a");

        paused.clear();
        JobDetail all = JobBuilder.newJob(FailingJob.class)
                .withIdentity("all")
                .usingJobData("how", "unschedule-all")
                .build();
        AdoptedJob c = mapping.map(all, cron(all, "all-a"), null, 2, clock.instant());
        AdoptedJob d = mapping.map(all, cron(all, "all-b"), null, 2, clock.instant());
        executor.add(c);
        executor.add(d);
        assertThatThrownBy(() -> executor.execute(c.task(), context(c.task().name(), "i-2", 1, FIRE, Map.of())))
                .isInstanceOf(JobExecutionException.class);
        assertThat(paused).containsExactlyInAnyOrder("quartz:reports.all-a", "quartz:reports.all-b");
    }
}
