package io.ax.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Schedules one-shot executions of on-demand handlers (tasks without a trigger: an {@code @AxJob} with neither cron
 * nor interval) at a time or after a delay, with a payload: "close this order if it is still unpaid 30 minutes from
 * now". Each is executed at least once, not before its time; a PERSISTENT one (the default) survives crashes and
 * restarts, a MEMORY one lives only in this process's wheel and is lost with it.
 *
 * <p><b>The horizon.</b> Every time, whether given as an instant, as a delay or to {@link #reschedule}, must lie
 * within {@link #HORIZON} (100 years) of now, either way: {@code Instant.MAX}, the year 9999 or a delay of {@code
 * Long.MAX_VALUE} seconds are refused.
 *
 * <p><b>Bad input</b> in a request (a null or blank handler name, an unknown handler, a handler with a trigger, a
 * missing time, a past time without {@link ScheduleRequest#allowPast()}, a negative delay, a time beyond the
 * horizon, a payload over the size limit or one the codec cannot write, a key empty, longer than {@value
 * TaskInstance#MAX_KEY_LENGTH} characters, starting with {@code @} or holding control characters or unpaired
 * surrogates) throws {@link InvalidScheduleException} or {@link UnknownTaskException}, with a message that names
 * the argument and, in a batch, the request; nothing of the batch is written. A null argument of a method (the list
 * or one of its requests, an instance id, a task name) throws {@link NullPointerException} naming it. An instance
 * id that AX cannot have made is simply unknown. Thread-safe.
 */
public interface AxScheduler {

    /**
     * How far from now a schedule time may lie, either way: 100 years of 365.25 days. Beyond it a time could not
     * be held exactly in the wheel (nanoseconds from now, in a {@code long}), nor, far enough, in the stores
     * (microseconds since the epoch).
     */
    Duration HORIZON = Duration.ofDays(36_525);

    /**
     * Runs {@code handler} once after {@code delay}, PERSISTENT unless the handler is declared MEMORY.
     *
     * @param payload a {@code String}, a {@code byte[]}, an object the configured {@link PayloadCodec} maps (JSON
     *     in a Spring application), or null
     * @return the instance id
     */
    default String schedule(String handler, Duration delay, Object payload) {
        return schedule(ScheduleRequest.of(handler).after(delay).payload(payload));
    }

    /** Runs {@code handler} once at {@code at}; see {@link #schedule(String, Duration, Object)}. */
    default String schedule(String handler, Instant at, Object payload) {
        return schedule(ScheduleRequest.of(handler).at(at).payload(payload));
    }

    /**
     * Schedules one execution. With a key that the handler already has an instance for, returns that instance's id
     * and writes nothing.
     *
     * @return the instance id
     */
    default String schedule(ScheduleRequest request) {
        return scheduleAll(List.of(Objects.requireNonNull(request, "request"))).get(0);
    }

    /**
     * Schedules many executions, checking all of them before writing any, and writing them in a few round trips.
     *
     * @return the instance ids, in the order of {@code requests}
     */
    List<String> scheduleAll(List<ScheduleRequest> requests);

    /**
     * Cancels a SCHEDULED instance. A cancelled instance never runs; if its fire time wins the race, the instance
     * runs and this returns false.
     *
     * @return true if the instance is now CANCELLED; false if it is unknown, already started or finished
     */
    boolean cancel(String instanceId);

    /**
     * Moves a SCHEDULED one-shot execution to another time; its id, payload and key stay.
     *
     * @return true if moved; false if it is unknown, already started or finished
     * @throws InvalidScheduleException when the time is null, past or beyond the {@link #HORIZON}, or the instance
     *     is a trigger's fire
     */
    boolean reschedule(String instanceId, Instant newTime);

    /** The instance with its state, attempt and audit trail, if known. */
    Optional<InstanceDetails> find(String instanceId);

    /**
     * Runs any task now, outside its trigger's schedule.
     *
     * @return the new instance's id
     * @throws UnknownTaskException when no task has that name
     */
    String triggerNow(String taskName);

    /**
     * Runs a task now with parameters for this run, laid over the task's own: only parameters the task declares may
     * be given (its values are the defaults), and the task's executor checks the result as it checks a definition.
     * The parameters are stored with the instance (its payload), so a retry or a replay runs with them too.
     *
     * @return the new instance's id
     * @throws UnknownTaskException when no task has that name
     * @throws InvalidTaskException when a parameter is not the task's, or the executor refuses the result
     */
    String triggerNow(String taskName, java.util.Map<String, String> params);

    /**
     * Pauses a task: its trigger's fires are skipped, and its other due instances wait, until {@link #resume}. The
     * flag is stored and survives a restart.
     *
     * @throws UnknownTaskException when no task has that name
     */
    void pause(String taskName);

    /**
     * Registers a task at runtime: it is stored (with an audited history), runs on this node at once and on every
     * node of the cluster within a heartbeat, and is loaded again at every start. Checked like a task in code: its
     * executor's {@code check} and the workflow rules; a cron expression is checked when its trigger is built.
     *
     * @return the stored definition, version 1
     * @throws InvalidTaskException when no executor runs it or it breaks a workflow rule
     * @throws AxException when the name is taken: by a task in code ({@code @AxJob}, {@code ax.tasks}), which a
     *     runtime definition never replaces, or by a runtime task (use {@link #update})
     */
    TaskDefinition register(TaskDefinition definition);

    /**
     * Replaces a task registered at runtime with a new definition of the same name, from its next fire time: the fire
     * the old definition planned is cancelled and the new trigger plans the next. Audited.
     *
     * @return the stored definition, one version higher
     * @throws UnknownTaskException when no runtime task has that name
     * @throws AxException when the name belongs to a task in code, or another node changed the task meanwhile
     */
    TaskDefinition update(TaskDefinition definition);

    /**
     * Removes a task registered at runtime, on every node within a heartbeat; its pending fires are cancelled, work
     * already running finishes. Audited.
     *
     * @throws UnknownTaskException when no runtime task has that name
     * @throws AxException when the name belongs to a task in code, or other tasks depend on it
     */
    void unregister(String taskName);

    /** The tasks registered at runtime, as stored, by name. */
    List<TaskDefinition> list();

    /**
     * Resumes a paused task; the instances that fell due meanwhile run now.
     *
     * @throws UnknownTaskException when no task has that name
     */
    void resume(String taskName);
}
