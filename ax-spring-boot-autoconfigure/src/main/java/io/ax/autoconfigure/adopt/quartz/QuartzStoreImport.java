package io.ax.autoconfigure.adopt.quartz;

import io.ax.autoconfigure.adopt.quartz.QuartzImportReport.Outcome;
import io.ax.autoconfigure.adopt.quartz.QuartzImportReport.TriggerEntry;
import io.ax.autoconfigure.adopt.quartz.QuartzStoreReader.StoredTrigger;
import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxException;
import io.ax.core.AxScheduler;
import io.ax.core.AxTask;
import io.ax.core.MisfirePolicy;
import io.ax.core.TaskDefinition;
import io.ax.core.clock.AxClock;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;
import org.quartz.SimpleTrigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports a Quartz JDBC job store into AX: each trigger of one scheduler becomes the runtime task that fires its job
 * as Quartz would (see {@link QuartzTaskMapping}), its first fire at the trigger's next fire time, paused when the
 * trigger is paused. A dry run (the default) writes nothing, anywhere, and reports what an import would do.
 *
 * <p>An import that applies works in one transaction on Quartz's store, under Quartz's own {@code TRIGGER_ACCESS}
 * lock, so that no Quartz node using database locks (every clustered one) acquires or fires a trigger meanwhile: it
 * reads the triggers, moves the imported ones to a state Quartz never fires ({@value QuartzStoreReader#IMPORTED}),
 * registers their tasks with AX, and commits only once AX took them all; if AX refuses one, the tasks registered so
 * far are unregistered and Quartz's store is left as it was. A trigger AX cannot run is left to Quartz and reported.
 * Thread-safe: each call has its own connection.
 */
public final class QuartzStoreImport {

    private static final Logger LOG = LoggerFactory.getLogger(QuartzStoreImport.class);

    private static final Set<String> FIRING = Set.of("WAITING", "ACQUIRED", "BLOCKED");
    private static final Set<String> PAUSED = Set.of("PAUSED", "PAUSED_BLOCKED");

    /**
     * What to import, and whether to.
     *
     * @param tablePrefix the tables' prefix ({@code org.quartz.jobStore.tablePrefix}); {@code QRTZ_} when null
     * @param schedulerName the scheduler's name ({@code org.quartz.scheduler.instanceName}); not blank
     * @param useProperties whether the store keeps job data as properties ({@code org.quartz.jobStore.useProperties})
     * @param apply false for a dry run, which writes nothing
     */
    public record Request(String tablePrefix, String schedulerName, boolean useProperties, boolean apply) {

        /**
         * Fills in the default prefix.
         *
         * @throws IllegalArgumentException when the scheduler name is blank
         */
        public Request {
            tablePrefix = tablePrefix == null || tablePrefix.isBlank() ? "QRTZ_" : tablePrefix;
            if (schedulerName == null || schedulerName.isBlank()) {
                throw new IllegalArgumentException("schedulerName must name the Quartz scheduler whose store is read");
            }
        }
    }

    /** What a run read and did, and what is left to do once Quartz's store committed. */
    private record Outcomes(QuartzImportReport report, List<String> registered) {}

    /** A trigger's entry in the report, with the job AX runs for it when it is imported. */
    private record Plan(StoredTrigger stored, TriggerEntry entry, AdoptedJob job) {}

    private final QuartzTaskMapping mapping;
    private final QuartzJobExecutor executor;
    private final AxScheduler scheduler;
    private final AxClock clock;
    private final Duration misfireThreshold;

    QuartzStoreImport(
            QuartzTaskMapping mapping,
            QuartzJobExecutor executor,
            AxScheduler scheduler,
            AxClock clock,
            Duration misfireThreshold) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.misfireThreshold = Objects.requireNonNull(misfireThreshold, "misfireThreshold");
    }

    /**
     * Reads the store and, when asked to, imports it.
     *
     * @param store the database of Quartz's job store
     * @param request what to import
     * @return what was imported, or would be in a dry run
     * @throws IllegalArgumentException for a table prefix that is no table name or a database Quartz has no delegate
     *     for
     * @throws AxException when the store cannot be read or written, or AX refused a task; nothing was imported then
     */
    public QuartzImportReport run(DataSource store, Request request) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(request, "request");
        try (Connection connection = store.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                Outcomes outcomes = run(connection, request);
                if (!outcomes.report().applied()) {
                    connection.rollback(); // a dry run wrote nothing; this only lets Quartz's lock go
                    return outcomes.report();
                }
                try {
                    connection.commit();
                } catch (SQLException e) {
                    unregister(outcomes.registered(), e);
                    throw e;
                }
                return outcomes.report();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new AxException(
                    "Cannot import Quartz scheduler '" + request.schedulerName() + "' from tables "
                            + request.tablePrefix() + "*: " + e.getMessage(),
                    e);
        }
    }

    private Outcomes run(Connection connection, Request request) throws SQLException {
        QuartzStoreReader reader = new QuartzStoreReader(
                connection, request.tablePrefix(), request.schedulerName(), request.useProperties());
        reader.lockTriggers();
        Instant now = clock.instant();
        List<Plan> plans = new ArrayList<>();
        for (StoredTrigger stored : reader.triggers()) {
            plans.add(plan(stored, now));
        }
        List<String> jobsWithoutTriggers =
                reader.jobsWithoutTriggers().stream().map(Object::toString).toList();
        List<String> registered = request.apply() ? apply(reader, plans) : List.of();
        QuartzImportReport report = new QuartzImportReport(
                request.apply(),
                request.schedulerName(),
                now,
                plans.stream().map(Plan::entry).toList(),
                jobsWithoutTriggers);
        return new Outcomes(report, registered);
    }

    /** What becomes of one trigger: the task it is imported as, or why it is not. */
    private Plan plan(StoredTrigger stored, Instant now) {
        String key = stored.key().toString();
        if (stored.unreadable() != null) {
            return refused(stored, null, stored.unreadable());
        }
        String job = stored.job().getKey().toString();
        if (QuartzStoreReader.IMPORTED.equals(stored.state())) {
            return new Plan(
                    stored,
                    new TriggerEntry(
                            key,
                            job,
                            stored.state(),
                            Outcome.ALREADY_IMPORTED,
                            QuartzTaskMapping.PREFIX + key,
                            null,
                            null,
                            null,
                            false,
                            "an earlier import made it an AX task"),
                    null);
        }
        boolean paused = PAUSED.contains(stored.state());
        if (!paused && !FIRING.contains(stored.state())) {
            return refused(stored, job, "Quartz no longer fires it (state " + stored.state() + ")");
        }
        Instant quartzNext = stored.trigger().getNextFireTime() == null
                ? null
                : stored.trigger().getNextFireTime().toInstant();
        if (quartzNext == null) {
            return refused(stored, job, "it has no next fire time: Quartz would not fire it again");
        }
        AdoptedJob adopted;
        try {
            adopted = mapping.map(stored.job(), stored.trigger(), stored.calendar(), stored.triggersOfJob(), now);
        } catch (InvalidJobDefinitionException e) {
            return refused(stored, job, e.getMessage());
        }
        if (!executor.keepsJobData()) {
            return refused(
                    stored,
                    job,
                    "AX's store keeps no task data, where an imported job is kept for every node to run it");
        }
        String unkept =
                ImportedJobs.refusal(adopted.task().name(), adopted.job(), adopted.trigger(), adopted.calendar());
        if (unkept != null) {
            return refused(stored, job, unkept);
        }
        // the first fire is pinned to Quartz's next fire time, so that AX runs that fire even when its time passes
        // before the task is registered, or before the node that decides the task plans it
        if (stored.trigger() instanceof SimpleTrigger simple) {
            Duration period = Duration.ofMillis(simple.getRepeatInterval());
            IntervalTrigger grid = IntervalTrigger.fixedRateFrom(period, quartzNext);
            if (paused && !quartzNext.isAfter(now)) {
                // no fire of a paused trigger is late: its grid starts after the import, in Quartz's phase
                grid = IntervalTrigger.fixedRateFrom(
                        period, grid.resumeAfter(quartzNext, now).orElseThrow());
            }
            adopted = withTask(adopted, withTrigger(adopted.task(), grid));
        } else if (!paused && adopted.task().trigger() instanceof CronTrigger cron) {
            adopted = withTask(adopted, withTrigger(adopted.task(), cron.firstFireFrom(quartzNext)));
        }
        AxTask task = adopted.task();
        Instant axFirst = task.trigger().firstFireTime(now).orElse(null);
        String note = null;
        if (paused) {
            axFirst = null;
            note = "paused, as in Quartz; its series starts again when it is resumed";
        } else if (!quartzNext.equals(axFirst)) {
            return refused(
                    stored,
                    job,
                    "AX would fire it first at " + axFirst + ", and Quartz's next fire time is " + quartzNext);
        } else if (!quartzNext.isAfter(now)) {
            Duration late = Duration.between(quartzNext, now);
            boolean runs = late.compareTo(misfireThreshold) <= 0 || task.misfire() != MisfirePolicy.SKIP;
            if (!runs) {
                axFirst = task.trigger().resumeAfter(quartzNext, now).orElse(null);
            }
            note = "its fire time " + quartzNext + " passed (" + late.toMillis() + " ms ago, misfire policy "
                    + task.misfire() + "): "
                    + (runs ? "AX runs it at once, as the fire of that time;" : "it is skipped;")
                    + " the series goes on from there";
        }
        TriggerEntry entry = new TriggerEntry(
                key,
                job,
                stored.state(),
                Outcome.IMPORTED,
                task.name(),
                task.trigger().describe(),
                quartzNext,
                axFirst,
                paused,
                note);
        return new Plan(stored, entry, adopted);
    }

    private static Plan refused(StoredTrigger stored, String job, String why) {
        return new Plan(
                stored,
                new TriggerEntry(
                        stored.key().toString(),
                        job,
                        stored.state(),
                        Outcome.REFUSED,
                        null,
                        null,
                        stored.trigger() == null || stored.trigger().getNextFireTime() == null
                                ? null
                                : stored.trigger().getNextFireTime().toInstant(),
                        null,
                        PAUSED.contains(stored.state()),
                        why),
                null);
    }

    /**
     * Takes the imported triggers out of Quartz's hands and registers their tasks; on any failure, unregisters the
     * tasks registered so far and throws, so that the caller rolls Quartz's store back.
     *
     * @return the names of the tasks registered
     */
    private List<String> apply(QuartzStoreReader reader, List<Plan> plans) throws SQLException {
        List<Plan> imported = plans.stream().filter(p -> p.job() != null).toList();
        for (Plan p : imported) {
            if (!reader.markImported(p.stored().key(), p.stored().state())) {
                throw new AxException("Quartz trigger " + p.stored().key() + " changed while it was imported (it is no"
                        + " longer " + p.stored().state() + "); nothing was imported, run the import again");
            }
        }
        List<String> registered = new ArrayList<>();
        List<String> added = new ArrayList<>();
        try {
            for (Plan p : imported) {
                AdoptedJob job = p.job();
                added.add(job.task().name());
                executor.addImported(job);
                if (job.dataKey() != null) {
                    executor.seedJobData(job, job.job().getJobDataMap().getWrappedMap());
                }
                scheduler.register(TaskDefinition.of(job.task()));
                registered.add(job.task().name());
                if (p.entry().paused()) {
                    scheduler.pause(job.task().name());
                }
            }
        } catch (RuntimeException e) {
            unregister(registered, e);
            added.forEach(executor::dropImported);
            throw new AxException(
                    "AX refused a task of the Quartz import, and nothing was imported: " + e.getMessage(), e);
        }
        LOG.info(
                "Imported {} Quartz trigger(s) as AX tasks, which Quartz no longer fires: {}",
                imported.size(),
                registered);
        return registered;
    }

    /** Takes back the tasks of an import that failed, so that Quartz alone fires its triggers again. */
    private void unregister(List<String> registered, Exception cause) {
        for (String name : registered) {
            try {
                scheduler.unregister(name);
            } catch (RuntimeException again) {
                cause.addSuppressed(again);
            }
            executor.dropImported(name);
        }
    }

    private static AdoptedJob withTask(AdoptedJob job, AxTask task) {
        return new AdoptedJob(task, job.origin(), job.job(), job.trigger(), job.calendar(), job.dataKey());
    }

    private static AxTask withTrigger(AxTask t, io.ax.core.trigger.Trigger trigger) {
        return new AxTask(
                t.name(),
                t.type(),
                t.target(),
                t.params(),
                trigger,
                t.retry(),
                t.timeout(),
                t.concurrent(),
                t.group(),
                t.durability(),
                t.misfire(),
                t.priority(),
                t.transactional(),
                t.limits());
    }
}
