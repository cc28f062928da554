package io.ax.autoconfigure.adopt.quartz;

import io.ax.autoconfigure.adopt.AdoptedTask;
import io.ax.autoconfigure.adopt.AdoptedTaskSource;
import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.quartz.Calendar;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.JobListener;
import org.quartz.Matcher;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.TriggerListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.quartz.SchedulerContextAware;

/**
 * Adopts the Quartz jobs, triggers and calendars that Spring Boot's Quartz auto-configuration would hand to its
 * scheduler (the application's {@code JobDetail}, {@code Trigger} and {@code Calendar} beans): one task per trigger,
 * one task run on demand per durable job without a trigger, each run by the {@link QuartzJobExecutor}. The scheduler
 * itself is left without them ({@link QuartzSchedulingCleared}), and a JDBC job store loses those it kept from earlier
 * starts. Refuses, failing start-up, what AX cannot run as
 * Quartz would: a feature of a trigger or job (see {@link QuartzTaskMapping}), a listener that would hear an adopted
 * job, a setting of {@code spring.quartz.*} that adopted jobs cannot keep.
 */
final class QuartzAdoption implements AdoptedTaskSource {

    private static final Logger LOG = LoggerFactory.getLogger(QuartzAdoption.class);

    /** The Quartz beans of the application, as Spring Boot's auto-configuration reads them. */
    record Beans(List<JobDetail> jobs, List<Trigger> triggers, Map<String, Calendar> calendars) {}

    /** The settings of {@code spring.quartz.*} that adopted jobs depend on. */
    record Settings(boolean autoStartup, Duration startupDelay, boolean overwriteExistingJobs) {}

    private final Supplier<Beans> beans;
    private final Settings settings;
    private final QuartzTaskMapping mapping;
    private final QuartzJobExecutor executor;
    private final QuartzSchedulingCleared cleared;
    private final Supplier<Scheduler> scheduler;
    private final AxClock clock;

    QuartzAdoption(
            Supplier<Beans> beans,
            Settings settings,
            QuartzTaskMapping mapping,
            QuartzJobExecutor executor,
            QuartzSchedulingCleared cleared,
            Supplier<Scheduler> scheduler,
            AxClock clock) {
        this.beans = beans;
        this.settings = settings;
        this.mapping = mapping;
        this.executor = executor;
        this.cleared = cleared;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    @Override
    public List<AdoptedTask> adoptedTasks() {
        Beans found = beans.get();
        Scheduler quartz = scheduler.get();
        if (quartz != null && !cleared.applied()) {
            throw refused(
                    "Quartz scheduler",
                    "SchedulerFactoryBean",
                    "the application declares a Quartz scheduler of its own, which Spring Boot's auto-configuration"
                            + " does not customize, so AX cannot keep it from firing the jobs AX adopts; let Spring"
                            + " Boot make the scheduler (spring.quartz.*, SchedulerFactoryBeanCustomizer), or set"
                            + " ax.adopt.quartz=false");
        }
        checkSettings(found);
        Map<JobKey, JobDetail> jobs = new LinkedHashMap<>();
        for (JobDetail j : found.jobs()) {
            if (jobs.putIfAbsent(j.getKey(), j) != null) {
                throw refused(
                        "Quartz job " + j.getKey(),
                        "key",
                        "two JobDetail beans have this key, and Quartz would keep only one of them; give each its own");
            }
        }
        Map<JobKey, Integer> triggersOfJob = new LinkedHashMap<>();
        // a list, not a map: a trigger's equality is its key's, and two triggers of one key are two definitions
        List<Map.Entry<Trigger, JobDetail>> jobOf = new ArrayList<>();
        for (Trigger t : found.triggers()) {
            JobDetail job = jobOf(t, jobs);
            jobOf.add(Map.entry(t, job));
            jobs.putIfAbsent(job.getKey(), job);
            triggersOfJob.merge(job.getKey(), 1, Integer::sum);
        }
        Instant now = clock.instant();
        List<AdoptedJob> adopted = new ArrayList<>();
        for (Map.Entry<Trigger, JobDetail> e : jobOf) {
            Trigger trigger = e.getKey();
            adopted.add(mapping.map(
                    e.getValue(),
                    trigger,
                    trigger.getCalendarName() == null ? null : found.calendars().get(trigger.getCalendarName()),
                    triggersOfJob.get(e.getValue().getKey()),
                    now));
        }
        jobs.values().stream()
                .filter(j -> !triggersOfJob.containsKey(j.getKey()))
                .forEach(j -> adopted.add(mapping.onDemand(j)));
        for (AdoptedJob a : adopted) {
            if (a.dataKey() != null && !executor.keepsJobData()) {
                throw refused(
                        a.origin(),
                        "PersistJobDataAfterExecution",
                        "AX keeps the data map in its store's task data, and this store keeps none");
            }
        }
        if (quartz != null) {
            checkListeners(quartz, adopted);
            schedulerContext(quartz);
            takeOverStored(quartz, adopted);
        }
        List<AdoptedTask> tasks = new ArrayList<>();
        for (AdoptedJob a : adopted) {
            executor.add(a);
            tasks.add(AdoptedTask.of(a.task(), a.origin()));
        }
        if (!tasks.isEmpty()) {
            LOG.info(
                    "AX adopts {} Quartz trigger(s) and job(s), which Quartz's scheduler no longer fires: {}",
                    tasks.size(),
                    tasks.stream().map(t -> t.task().name()).toList());
        }
        return tasks;
    }

    /** The job a trigger fires: a job bean, else the one Spring's trigger factory beans keep in its data map. */
    private static JobDetail jobOf(Trigger trigger, Map<JobKey, JobDetail> jobs) {
        JobDetail job = jobs.get(trigger.getJobKey());
        if (job != null) {
            return job;
        }
        Object kept = trigger.getJobDataMap().get(QuartzTaskMapping.JOB_DETAIL_KEY);
        if (kept instanceof JobDetail detail && detail.getKey().equals(trigger.getJobKey())) {
            return detail;
        }
        throw refused(
                "Quartz trigger " + trigger.getKey(),
                "jobKey",
                "it fires job " + trigger.getJobKey() + ", which is neither a JobDetail bean nor the job detail of"
                        + " its trigger factory bean");
    }

    private void checkSettings(Beans found) {
        if (!settings.autoStartup()) {
            throw refused(
                    "spring.quartz settings",
                    "spring.quartz.auto-startup",
                    "false leaves the jobs to be started by hand, and AX runs the jobs it adopts from its start;"
                            + " remove the setting (pause adopted tasks through AX if they must wait)");
        }
        if (!settings.startupDelay().isZero()) {
            throw refused(
                    "spring.quartz settings",
                    "spring.quartz.startup-delay",
                    "AX fires the jobs it adopts from its start, without a delay; remove the setting");
        }
        boolean persisting = found.jobs().stream().anyMatch(JobDetail::isPersistJobDataAfterExecution)
                || found.triggers().stream()
                        .map(t -> t.getJobDataMap().get(QuartzTaskMapping.JOB_DETAIL_KEY))
                        .anyMatch(j -> j instanceof JobDetail d && d.isPersistJobDataAfterExecution());
        if (settings.overwriteExistingJobs() && persisting) {
            throw refused(
                    "spring.quartz settings",
                    "spring.quartz.overwrite-existing-jobs",
                    "true resets the data map of a job with @PersistJobDataAfterExecution to its bean's at each start,"
                            + " and AX keeps the map the job last wrote, across restarts and nodes; remove the setting");
        }
    }

    /** A job or trigger listener that would hear an adopted job: AX does not call it, so it is refused. */
    private static void checkListeners(Scheduler quartz, List<AdoptedJob> adopted) {
        try {
            for (JobListener listener : quartz.getListenerManager().getJobListeners()) {
                List<Matcher<JobKey>> matchers = quartz.getListenerManager().getJobListenerMatchers(listener.getName());
                for (AdoptedJob a : adopted) {
                    if (matchers != null
                            && matchers.stream().anyMatch(m -> m.isMatch(a.job().getKey()))) {
                        throw listenerRefused(a, "job listener '" + listener.getName() + "'");
                    }
                }
            }
            for (TriggerListener listener : quartz.getListenerManager().getTriggerListeners()) {
                List<Matcher<TriggerKey>> matchers =
                        quartz.getListenerManager().getTriggerListenerMatchers(listener.getName());
                for (AdoptedJob a : adopted) {
                    if (a.trigger() != null
                            && matchers != null
                            && matchers.stream()
                                    .anyMatch(m -> m.isMatch(a.trigger().getKey()))) {
                        throw listenerRefused(a, "trigger listener '" + listener.getName() + "'");
                    }
                }
            }
        } catch (SchedulerException e) {
            throw refused("Quartz scheduler", "listeners", "its listeners cannot be read: " + e.getMessage());
        }
    }

    private static InvalidJobDefinitionException listenerRefused(AdoptedJob job, String listener) {
        return refused(
                job.origin(),
                "listeners",
                listener + " would hear its runs, and AX does not call Quartz's listeners; leave the job out of the"
                        + " listener's matchers, or listen to AX (EngineObserver, AxDeadLetterEvent)");
    }

    /**
     * A persistent Quartz job store (spring.quartz.job-store-type=jdbc) keeps the jobs and triggers of earlier starts,
     * and Quartz's scheduler would fire them from there, beans or not: the adopted ones are deleted from it before it
     * starts (without the adoption, Spring Boot stores them again from the beans). The data map Quartz kept for a job
     * with {@code @PersistJobDataAfterExecution} becomes the first value of AX's.
     */
    private void takeOverStored(Scheduler quartz, List<AdoptedJob> adopted) {
        Map<JobKey, AdoptedJob> jobs = new LinkedHashMap<>();
        adopted.forEach(a -> jobs.putIfAbsent(a.job().getKey(), a));
        List<String> taken = new ArrayList<>();
        try {
            // the maps first: the last trigger's removal takes a job that is not durable with it
            for (AdoptedJob a : jobs.values()) {
                JobDetail stored = quartz.getJobDetail(a.job().getKey());
                if (stored != null && a.dataKey() != null) {
                    seed(a, stored);
                }
            }
            for (AdoptedJob a : adopted) {
                if (a.trigger() != null && quartz.unscheduleJob(a.trigger().getKey())) {
                    taken.add(a.trigger().getKey().toString());
                }
            }
            for (AdoptedJob a : jobs.values()) {
                if (quartz.deleteJob(a.job().getKey())) {
                    taken.add(a.job().getKey().toString());
                }
            }
        } catch (SchedulerException e) {
            throw refused(
                    "Quartz scheduler",
                    "jobStore",
                    "the adopted jobs and triggers cannot be taken out of its job store: " + e.getMessage());
        }
        if (!taken.isEmpty()) {
            LOG.info(
                    "AX took the adopted jobs and triggers out of Quartz's job store, which no longer fires them: {}",
                    taken);
        }
    }

    private void seed(AdoptedJob job, JobDetail stored) {
        try {
            if (executor.seedJobData(job, stored.getJobDataMap().getWrappedMap())) {
                LOG.info(
                        "AX keeps the data map of Quartz job {} from now on, starting from the one Quartz's job store"
                                + " kept",
                        job.job().getKey());
            }
        } catch (IllegalArgumentException e) {
            throw refused(job.origin(), "jobDataMap", "the map Quartz's job store kept: " + e.getMessage());
        }
    }

    /** The scheduler's context goes to the jobs' bean properties, as Quartz's own job factory gives it. */
    private void schedulerContext(Scheduler quartz) {
        if (executor.jobFactory() instanceof SchedulerContextAware aware) {
            try {
                aware.setSchedulerContext(quartz.getContext());
            } catch (SchedulerException e) {
                throw refused("Quartz scheduler", "schedulerContext", "it cannot be read: " + e.getMessage());
            }
        }
    }

    private static InvalidJobDefinitionException refused(String origin, String attribute, String reason) {
        return InvalidJobDefinitionException.ofAdopted(origin, attribute, reason);
    }
}
