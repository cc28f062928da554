package io.ax.autoconfigure.adopt.quartz;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.MisfirePolicy;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskLimits;
import io.ax.core.cron.CronParseException;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.quartz.Calendar;
import org.quartz.CronTrigger;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.spi.OperableTrigger;

/**
 * Turns a Quartz job with one of its triggers (and the calendar the trigger names) into the AX task that runs it the
 * same way, or refuses it, naming the attribute AX cannot keep and why. It reads only the Quartz objects it is given:
 * they may be the beans Spring Boot would hand to Quartz, or rows of a Quartz job store. Stateless.
 *
 * <p>Each trigger becomes a task named {@code quartz:<trigger group>.<trigger name>}; a durable job without a
 * trigger a task run on demand named {@code quartz:<job group>.<job name>}. A weekly or monthly calendar is written
 * into its cron trigger's expression ({@link CalendarFold}).
 */
final class QuartzTaskMapping {

    /** The task type of adopted Quartz jobs, which {@link QuartzJobExecutor} runs. */
    static final String TYPE = "QUARTZ";

    /** The prefix of the names of adopted tasks, and of the keys their data maps are kept under. */
    static final String PREFIX = "quartz:";

    /** The key Spring's trigger factory beans keep the trigger's job detail under, in the trigger's data map. */
    static final String JOB_DETAIL_KEY = "jobDetail";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._\\-:$]{1,200}");

    private final Duration timeout;
    private final RetryPolicy retry;
    private final int takeovers;
    private final Duration misfireThreshold;

    /**
     * @param timeout how long a run may take (Quartz sets no bound): {@code ax.adopt.timeout}; positive
     * @param retry what follows a failed run, as for every task that sets none: {@code ax.retry.*}
     * @param takeovers how often a run cut short by its node's death runs again: {@code ax.retry.takeovers}
     * @param misfireThreshold how late a first fire may be before it counts as missed: {@code ax.misfire.threshold}
     */
    QuartzTaskMapping(Duration timeout, RetryPolicy retry, int takeovers, Duration misfireThreshold) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw refused("ax.adopt settings", "ax.adopt.timeout", "it must be a positive duration, was " + timeout);
        }
        this.retry = Objects.requireNonNull(retry, "retry");
        this.takeovers = takeovers;
        this.misfireThreshold = Objects.requireNonNull(misfireThreshold, "misfireThreshold");
    }

    /**
     * The task of one trigger of a job.
     *
     * @param job the job the trigger fires
     * @param trigger the trigger
     * @param calendar the calendar the trigger names; null when it names none
     * @param triggersOfJob how many triggers fire the job (its runs must not overlap across all of them)
     * @param now the present, from which a simple trigger's first fire is counted
     * @throws InvalidJobDefinitionException naming what AX cannot run as Quartz would
     */
    AdoptedJob map(JobDetail job, Trigger trigger, Calendar calendar, int triggersOfJob, Instant now) {
        String origin = "Quartz trigger " + trigger.getKey() + " of job " + job.getKey();
        String name = PREFIX + trigger.getKey();
        checkName(name, origin);
        if (!trigger.getJobKey().equals(job.getKey())) {
            throw refused(origin, "jobKey", "it fires job " + trigger.getJobKey() + ", not " + job.getKey());
        }
        checkJob(job, origin);
        if (trigger.getCalendarName() != null && calendar == null) {
            throw refused(
                    origin,
                    "calendarName",
                    "it names calendar '" + trigger.getCalendarName() + "', and there is no Calendar bean of that"
                            + " name");
        }
        if (trigger.getEndTime() != null) {
            throw refused(
                    origin,
                    "endTime",
                    "it stops firing at " + trigger.getEndTime().toInstant() + ", and an AX series has no end;"
                            + " leave endTime out");
        }
        AxTask.Builder task = AxTask.builder(name)
                .type(TYPE)
                .target(job.getKey().toString())
                .params(params(job, trigger))
                .timeout(timeout)
                .retry(retry)
                .concurrent(!job.isConcurrentExecutionDisallowed())
                .durability(Durability.PERSISTENT)
                .priority(priority(trigger, origin));
        if (!(trigger instanceof OperableTrigger)) {
            throw refused(
                    origin,
                    "class",
                    "a " + trigger.getClass().getName() + " is no trigger Quartz's scheduler can fire (an"
                            + " OperableTrigger), nor one AX can");
        }
        if (trigger instanceof CronTrigger cron) {
            cron(cron, calendar, now, origin, task);
        } else if (trigger instanceof SimpleTrigger simple) {
            if (calendar != null) {
                throw refused(
                        origin,
                        "calendarName",
                        "calendar '" + trigger.getCalendarName() + "' excludes times from its fires, and AX writes a"
                                + " calendar only into the expression of a cron trigger");
            }
            simple(simple, now, origin, task);
        } else {
            throw refused(
                    origin,
                    "class",
                    "a " + trigger.getClass().getName() + " has no AX trigger that fires at the same times (AX"
                            + " adopts cron and simple triggers)");
        }
        if (job.isConcurrentExecutionDisallowed() && triggersOfJob > 1) {
            // the runs of one job must not overlap across all its triggers, each a task of its own: a mutex of the
            // job holds a fire back until the run before it ends, as Quartz does
            task.limits(new TaskLimits(0, mutex(job.getKey(), origin)));
        }
        return new AdoptedJob(
                build(task, origin), origin, job, withoutJobDetail(trigger), calendar, dataKey(job, origin));
    }

    /**
     * The task of a durable job stored without a trigger: run on demand only.
     *
     * @throws InvalidJobDefinitionException naming what AX cannot run as Quartz would, or when the job is not durable
     *     (Quartz refuses to store such a job)
     */
    AdoptedJob onDemand(JobDetail job) {
        String origin = "Quartz job " + job.getKey();
        String name = PREFIX + job.getKey();
        checkName(name, origin);
        if (!job.isDurable()) {
            throw refused(
                    origin,
                    "durability",
                    "it has no trigger and is not durable, and Quartz stores a job without a trigger only when it is"
                            + " durable; give it a trigger or make it durable (storeDurably) to run it on demand");
        }
        checkJob(job, origin);
        AxTask.Builder task = AxTask.builder(name)
                .type(TYPE)
                .target(job.getKey().toString())
                .params(params(job, null))
                .trigger(OnDemandTrigger.INSTANCE)
                .timeout(timeout)
                .retry(retry)
                .concurrent(!job.isConcurrentExecutionDisallowed())
                .durability(Durability.PERSISTENT);
        return new AdoptedJob(build(task, origin), origin, job, null, null, dataKey(job, origin));
    }

    private void checkJob(JobDetail job, String origin) {
        if (job.getJobClass() == null) {
            throw refused(origin, "jobClass", "the job has no class");
        }
        if (job.requestsRecovery() && takeovers == 0) {
            throw refused(
                    origin,
                    "requestsRecovery",
                    "Quartz runs a job again when the node that ran it died; so does AX (a takeover), and"
                            + " ax.retry.takeovers is 0. Set ax.retry.takeovers to 1 or more, or requestsRecovery to"
                            + " false");
        }
        if (job.isPersistJobDataAfterExecution()) {
            for (Map.Entry<String, Object> e : job.getJobDataMap().entrySet()) {
                String refusal = JobDataCodec.refusal(e.getValue());
                if (refusal != null) {
                    throw refused(origin, "jobDataMap", "entry '" + e.getKey() + "': " + refusal);
                }
            }
        }
    }

    private void cron(CronTrigger cron, Calendar calendar, Instant now, String origin, AxTask.Builder task) {
        if (cron.getStartTime() != null && cron.getStartTime().toInstant().isAfter(now)) {
            throw refused(
                    origin,
                    "startTime",
                    "it starts firing at " + cron.getStartTime().toInstant() + ", and an AX cron series starts at"
                            + " once; leave startTime (and startDelay) out");
        }
        String expression = cron.getCronExpression();
        if (calendar != null) {
            try {
                expression = CalendarFold.fold(expression, cron.getTimeZone(), calendar);
            } catch (IllegalArgumentException e) {
                throw refused(
                        origin,
                        "calendarName",
                        "calendar '" + cron.getCalendarName() + "' (a "
                                + calendar.getClass().getSimpleName() + "): " + e.getMessage());
            }
        }
        try {
            task.trigger(io.ax.core.trigger.CronTrigger.of(
                    expression, cron.getTimeZone().toZoneId()));
        } catch (CronParseException e) {
            throw refused(
                    origin,
                    "cronExpression",
                    expression.equals(cron.getCronExpression())
                            ? e.getMessage()
                            : "with calendar '" + cron.getCalendarName() + "' written in, '" + expression + "': "
                                    + e.getMessage());
        }
        task.misfire(
                switch (cron.getMisfireInstruction()) {
                    case Trigger.MISFIRE_INSTRUCTION_SMART_POLICY, CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW ->
                        MisfirePolicy.FIRE_ONCE;
                    case CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING -> MisfirePolicy.SKIP;
                    case Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY -> MisfirePolicy.FIRE_ALL;
                    default -> throw unknownMisfire(cron, origin);
                });
    }

    private void simple(SimpleTrigger simple, Instant now, String origin, AxTask.Builder task) {
        if (simple.getRepeatCount() != SimpleTrigger.REPEAT_INDEFINITELY) {
            throw refused(
                    origin,
                    "repeatCount",
                    "it fires " + (simple.getRepeatCount() + 1) + " time(s), and an AX series fires until it is"
                            + " paused; set repeatCount to SimpleTrigger.REPEAT_INDEFINITELY (-1), or schedule a one-off"
                            + " run with AxScheduler");
        }
        if (simple.getRepeatInterval() <= 0) {
            throw refused(origin, "repeatInterval", "it must be positive, was " + simple.getRepeatInterval() + " ms");
        }
        Duration period = Duration.ofMillis(simple.getRepeatInterval());
        task.trigger(IntervalTrigger.fixedRate(period, firstDelay(simple, period, now)));
        task.misfire(
                switch (simple.getMisfireInstruction()) {
                    case Trigger.MISFIRE_INSTRUCTION_SMART_POLICY,
                            SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT,
                            SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_EXISTING_COUNT -> MisfirePolicy.SKIP;
                    case Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY -> MisfirePolicy.FIRE_ALL;
                    case SimpleTrigger.MISFIRE_INSTRUCTION_FIRE_NOW,
                            SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NOW_WITH_EXISTING_REPEAT_COUNT,
                            SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NOW_WITH_REMAINING_REPEAT_COUNT ->
                        throw refused(
                                origin,
                                "misfireInstruction",
                                "instruction " + simple.getMisfireInstruction() + " fires at once and then counts the"
                                        + " interval from that late fire, and AX keeps a fixed rate on its first"
                                        + " times; use MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT (the"
                                        + " missed times are skipped) or MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY"
                                        + " (each is run)");
                    default -> throw unknownMisfire(simple, origin);
                });
    }

    /**
     * The wait before a simple trigger's first fire: until its start time; for a start time that passed, at once when
     * it passed by less than the misfire threshold (as Quartz fires a trigger scheduled a moment ago), else until its
     * next time on the grid of its interval (as Quartz's misfire handling of a repeating trigger does).
     */
    private Duration firstDelay(SimpleTrigger simple, Duration period, Instant now) {
        Instant start =
                simple.getStartTime() == null ? now : simple.getStartTime().toInstant();
        if (!start.isBefore(now)) {
            return Duration.between(now, start);
        }
        Duration late = Duration.between(start, now);
        if (late.compareTo(misfireThreshold) <= 0) {
            return Duration.ZERO;
        }
        long periods = late.toMillis() / period.toMillis() + 1;
        return Duration.between(now, start.plus(period.multipliedBy(periods)));
    }

    /**
     * The task's parameters: the text entries of the merged data map (the job's, then the trigger's), which a run on
     * demand may set (as {@code Scheduler.triggerJob} gives a data map), and which people see.
     */
    private static Map<String, String> params(JobDetail job, Trigger trigger) {
        Map<String, String> params = new java.util.LinkedHashMap<>();
        job.getJobDataMap().forEach((k, v) -> {
            if (v instanceof String text) {
                params.put(k, text);
            }
        });
        if (trigger != null) {
            trigger.getJobDataMap().forEach((k, v) -> {
                if (v instanceof String text && !JOB_DETAIL_KEY.equals(k)) {
                    params.put(k, text);
                }
            });
        }
        return params;
    }

    private static int priority(Trigger trigger, String origin) {
        int p = trigger.getPriority();
        if (p < AxTask.MIN_PRIORITY || p > AxTask.MAX_PRIORITY) {
            throw refused(
                    origin,
                    "priority",
                    p + " is outside AX's priorities, " + AxTask.MIN_PRIORITY + " to " + AxTask.MAX_PRIORITY);
        }
        return p;
    }

    private static String mutex(JobKey job, String origin) {
        String mutex = PREFIX + job;
        if (mutex.contains("${") || mutex.length() > TaskLimits.MAX_MUTEX_LENGTH) {
            throw refused(
                    origin,
                    "jobKey",
                    "the job's key names the lock that keeps its runs apart, and '" + job + "' cannot (no '${',"
                            + " at most " + (TaskLimits.MAX_MUTEX_LENGTH - PREFIX.length()) + " characters)");
        }
        return mutex;
    }

    /** The key a job's data map is kept under between runs, or null when it keeps none. */
    static String dataKey(JobDetail job, String origin) {
        if (!job.isPersistJobDataAfterExecution()) {
            return null;
        }
        String key = PREFIX + job.getKey();
        if (key.length() > io.ax.core.store.TaskDataStore.MAX_KEY_LENGTH) {
            throw refused(
                    origin,
                    "jobKey",
                    "its data map is kept under its key, of at most "
                            + (io.ax.core.store.TaskDataStore.MAX_KEY_LENGTH - PREFIX.length()) + " characters");
        }
        return key;
    }

    private static void checkName(String name, String origin) {
        if (!NAME.matcher(name).matches()) {
            throw refused(
                    origin,
                    "name",
                    "AX names its task '" + name + "', and a task name has 1-200 characters of letters, digits and"
                            + " . _ - : $; rename the trigger (or job)");
        }
    }

    private static AxTask build(AxTask.Builder task, String origin) {
        try {
            return task.build();
        } catch (IllegalArgumentException e) {
            throw refused(origin, "name", e.getMessage());
        }
    }

    /** A copy of the trigger without the job detail that Spring's factory beans put in its data map. */
    private static OperableTrigger withoutJobDetail(Trigger trigger) {
        OperableTrigger copy = (OperableTrigger) ((OperableTrigger) trigger).clone();
        copy.getJobDataMap().remove(JOB_DETAIL_KEY);
        return copy;
    }

    private static InvalidJobDefinitionException unknownMisfire(Trigger trigger, String origin) {
        return refused(
                origin,
                "misfireInstruction",
                trigger.getMisfireInstruction() + " is no misfire instruction of a "
                        + trigger.getClass().getSimpleName());
    }

    private static InvalidJobDefinitionException refused(String origin, String attribute, String reason) {
        return InvalidJobDefinitionException.ofAdopted(origin, attribute, reason);
    }
}
