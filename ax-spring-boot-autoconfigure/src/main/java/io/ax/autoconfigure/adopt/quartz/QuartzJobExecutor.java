package io.ax.autoconfigure.adopt.quartz;

import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxContext;
import io.ax.core.AxException;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.InvalidTaskException;
import io.ax.core.RetryNowException;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.store.InstanceStore;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.quartz.impl.JobExecutionContextImpl;
import org.quartz.spi.JobFactory;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs adopted Quartz jobs (tasks of type {@value QuartzTaskMapping#TYPE}): each run makes its job as Spring's job
 * factory makes it (a bean of the application, the merged data map applied to its properties) and hands it a real
 * {@code JobExecutionContext}: the fire time, the scheduled fire time, the trigger's previous and next fire times, the
 * merged data map, the trigger, the job detail and the refire count ({@code attempt - 1}).
 *
 * <p>A {@code JobExecutionException} that asks to refire immediately has the run tried again at once; any other
 * exception fails the attempt as any AX failure does. One that asks to unschedule the firing trigger (or all the
 * job's) pauses its task (or all of the job's). A job with {@code @PersistJobDataAfterExecution} reads its data map
 * from the store's task data at each run and writes it back after a successful run, conditional on the version it
 * read ({@link JobData}). Thread-safe.
 */
final class QuartzJobExecutor implements AxExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(QuartzJobExecutor.class);

    /** How many of a task's latest instances are read to find the fire before this one. */
    private static final int PREVIOUS_LOOKUP = 16;

    /** The longest result (what a job sets with {@code setResult}) recorded as the success's note. */
    private static final int MAX_RESULT = 500;

    private final Map<String, AdoptedJob> jobs = new ConcurrentHashMap<>();
    private final InstanceStore store;
    private final AxClock clock;
    private final JobFactory jobFactory;
    private final Supplier<Scheduler> scheduler;
    private final Consumer<String> pause;
    private final JobData data;
    private final ImportedJobs imported;
    private final AdoptedTasks adopted;

    /**
     * @param store the engine's store: its instances tell a run's origin and previous fire, its task data keeps the
     *     data maps of jobs that persist them
     * @param clock the engine's clock, for fire times
     * @param jobFactory makes each run's job
     * @param scheduler the application's Quartz scheduler, handed to jobs in their context; may give null
     * @param pause pauses a task by name: what a job's request to unschedule its trigger does
     * @param adopted where the tasks imported from a Quartz job store are marked as adopted, on whichever node
     *     learns of them
     */
    QuartzJobExecutor(
            InstanceStore store,
            AxClock clock,
            JobFactory jobFactory,
            Supplier<Scheduler> scheduler,
            Consumer<String> pause,
            AdoptedTasks adopted) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.jobFactory = Objects.requireNonNull(jobFactory, "jobFactory");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.pause = Objects.requireNonNull(pause, "pause");
        this.adopted = Objects.requireNonNull(adopted, "adopted");
        this.data = new JobData(store.taskData().orElse(null));
        this.imported = new ImportedJobs(store.taskData().orElse(null));
    }

    /** Whether this executor can keep data maps between runs: the store keeps task data. */
    boolean keepsJobData() {
        return data.available();
    }

    /** The factory that makes each run's job. */
    JobFactory jobFactory() {
        return jobFactory;
    }

    /**
     * Takes over the data map Quartz's own job store kept for an adopted job (see {@link JobData#seed}).
     *
     * @return whether it was written
     */
    boolean seedJobData(AdoptedJob job, java.util.Map<String, Object> kept) {
        return data.seed(job, kept, clock.instant());
    }

    /** Adds an adopted job, before its task is registered. */
    void add(AdoptedJob job) {
        jobs.put(job.task().name(), job);
    }

    /**
     * Adds a job imported from a Quartz job store, before its task is registered, and keeps it in the store's task
     * data, where every other node (and this one after a restart) finds it when the task's definition reaches it.
     */
    void addImported(AdoptedJob job) {
        imported.keep(job, clock.instant());
        add(job);
        adopted.add(job.task().name(), ImportedJobs.origin(job.job(), job.trigger()));
    }

    /** Takes back a job {@link #addImported} added, for an import that failed: its task is no longer adopted. */
    void dropImported(String taskName) {
        jobs.remove(taskName);
        adopted.remove(taskName);
    }

    @Override
    public boolean matchTaskType(String type) {
        return QuartzTaskMapping.TYPE.equals(type);
    }

    @Override
    public void check(AxTask task) {
        if (job(task) == null) {
            throw new InvalidTaskException(
                    task.name(),
                    "type",
                    "type " + QuartzTaskMapping.TYPE + " is for the Quartz jobs AX adopts at start-up"
                            + " (ax.adopt.quartz=true) or imports from a Quartz job store; this task is none of them");
        }
    }

    /**
     * The job of a task: adopted or imported by this node, or imported by another (or before a restart), as the
     * import kept it; null when none.
     */
    private AdoptedJob job(AxTask task) {
        AdoptedJob known = jobs.get(task.name());
        if (known != null) {
            return known;
        }
        Optional<AdoptedJob> kept;
        try {
            kept = imported.find(task);
        } catch (AxException e) {
            throw new InvalidTaskException(task.name(), "type", e.getMessage());
        }
        kept.ifPresent(j -> {
            jobs.putIfAbsent(task.name(), j);
            // another node imported it (or this one, before a restart): the task is adopted here as well
            adopted.add(task.name(), j.origin());
        });
        return kept.orElse(null);
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        AdoptedJob adopted = job(task);
        if (adopted == null) {
            throw new AxException("task '" + task.name() + "' is no adopted Quartz job");
        }
        Instant scheduled = context.scheduledTime();
        Optional<TaskInstance> instance = store.find(context.instanceId());
        boolean onDemand = adopted.trigger() == null
                || instance.map(i -> !i.origin().isTriggerFire()).orElse(false);
        JobData.Read read = data.read(adopted);
        JobDetail detail = adopted.job().getJobBuilder().setJobData(read.map()).build();
        OperableTrigger trigger =
                onDemand ? manualTrigger(adopted, context) : firingTrigger(adopted, task, context, scheduled);
        Date fireTime = Date.from(clock.instant());
        TriggerFiredBundle bundle = new TriggerFiredBundle(
                detail,
                trigger,
                adopted.calendar(),
                false,
                fireTime,
                Date.from(scheduled),
                trigger.getPreviousFireTime(),
                trigger.getNextFireTime());
        Scheduler quartz = scheduler.get();
        Job job;
        try {
            job = jobFactory.newJob(bundle, quartz);
        } catch (SchedulerException e) {
            throw new AxException(
                    "Cannot make job " + detail.getKey() + " ("
                            + detail.getJobClass().getName() + "): " + e.getMessage(),
                    e);
        }
        JobExecutionContextImpl quartzContext = new JobExecutionContextImpl(quartz, bundle, job);
        for (int refire = 1; refire < context.attempt(); refire++) {
            quartzContext.incrementRefireCount();
        }
        long startNanos = clock.nanoTime();
        try {
            job.execute(quartzContext);
        } catch (JobExecutionException e) {
            unschedule(adopted, e);
            if (e.refireImmediately()) {
                throw new RetryNowException(
                        "job " + detail.getKey() + " asked to be refired immediately: " + e.getMessage(), e);
            }
            throw e;
        } finally {
            quartzContext.setJobRunTime((clock.nanoTime() - startNanos) / 1_000_000);
        }
        data.writeBack(adopted, read, quartzContext.getJobDetail().getJobDataMap(), context, clock.instant());
        return result(quartzContext.getResult());
    }

    /**
     * The trigger of a fire, as Quartz hands it to a job: a copy of the adopted one, its fire times those of this
     * fire (the previous one is the last fire of its task before this, the next what its AX trigger says).
     */
    private OperableTrigger firingTrigger(AdoptedJob adopted, AxTask task, AxContext context, Instant scheduled) {
        OperableTrigger trigger = (OperableTrigger) adopted.trigger().clone();
        trigger.setFireInstanceId(context.instanceId());
        trigger.setPreviousFireTime(
                previousFire(task.name(), scheduled).map(Date::from).orElse(null));
        trigger.setNextFireTime(task.trigger()
                .nextFireTime(scheduled, clock.instant())
                .map(Date::from)
                .orElse(null));
        return trigger;
    }

    /**
     * The trigger of a run on demand, as Quartz makes one for {@code Scheduler.triggerJob}: fires once, now, and its
     * data map holds the parameters the run was given (kept as its payload), laid over the job's map.
     */
    private static OperableTrigger manualTrigger(AdoptedJob adopted, AxContext context) {
        JobDataMap params = new JobDataMap();
        if (context.hasPayload()) {
            java.util.Properties given = new java.util.Properties();
            try {
                given.load(new java.io.StringReader(context.payloadString()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e); // a StringReader does not fail
            }
            given.forEach((k, v) -> params.put((String) k, (String) v));
        }
        OperableTrigger trigger = (OperableTrigger) TriggerBuilder.newTrigger()
                .withIdentity("MT_" + context.instanceId(), "MANUAL_TRIGGER")
                .forJob(adopted.job().getKey())
                .usingJobData(params)
                .startAt(Date.from(context.scheduledTime()))
                .build();
        trigger.setFireInstanceId(context.instanceId());
        return trigger;
    }

    /** The scheduled time of the last fire of the task's trigger before {@code scheduled}, if any. */
    private Optional<Instant> previousFire(String taskName, Instant scheduled) {
        List<TaskInstance> latest = store.findByTask(taskName, PREVIOUS_LOOKUP);
        return latest.stream()
                .filter(i -> i.origin().isTriggerFire()
                        && i.scheduledTime().isBefore(scheduled)
                        && i.state() != InstanceState.SKIPPED // held back: the job did not run then
                        && i.state() != InstanceState.CANCELLED)
                .map(TaskInstance::scheduledTime)
                .max(Instant::compareTo);
    }

    /** A job's request to unschedule its trigger, or all of its job's: their tasks are paused. */
    private void unschedule(AdoptedJob adopted, JobExecutionException e) {
        if (e.unscheduleAllTriggers()) {
            jobs.values().stream()
                    .filter(j -> j.job().getKey().equals(adopted.job().getKey()) && j.trigger() != null)
                    .forEach(j -> pauseAsked(j, "all the job's triggers"));
        } else if (e.unscheduleFiringTrigger() && adopted.trigger() != null) {
            pauseAsked(adopted, "its firing trigger");
        }
    }

    private void pauseAsked(AdoptedJob job, String what) {
        LOG.warn(
                "Quartz job {} asked to unschedule {}: AX pauses task '{}' (resume it to fire again)",
                job.job().getKey(),
                what,
                job.task().name());
        pause.accept(job.task().name());
    }

    private static AxResult result(Object result) {
        if (result == null) {
            return AxResult.success();
        }
        String text = String.valueOf(result);
        return AxResult.success(text.length() <= MAX_RESULT ? text : text.substring(0, MAX_RESULT) + "...");
    }
}
