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
 * missing time, a past time without {@link ScheduleRequest#allowPast()}, a negative delay, a time beyond the horizon, a
 * payload over the size limit or one the codec cannot write, a key empty, longer than {@value
 * TaskInstance#MAX_KEY_LENGTH} characters, starting with {@code @} or holding control characters or unpaired
 * surrogates, a priority outside {@value AxTask#MIN_PRIORITY} to {@value AxTask#MAX_PRIORITY}, MEMORY for a
 * transactional handler or one with limits of its own) throws {@link InvalidScheduleException} or {@link
 * UnknownTaskException}, with a message that names the argument and, in a batch, the request; nothing of the batch is
 * written. A null argument of a method (the list or one of its requests, an instance id, a task name) throws {@link
 * NullPointerException} naming it. An instance id that AX cannot have made is simply unknown.
 *
 * <p>Called inside a transaction that the store's writes join (a Spring-managed one on the JDBC store's {@code
 * DataSource}), a schedule, cancel or reschedule commits or rolls back with it; the engine acts on it only after the
 * commit. Thread-safe.
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
     * @param handler the name of an on-demand task
     * @param delay how long from now; zero or positive
     * @param payload a {@code String}, a {@code byte[]}, an object the configured {@link PayloadCodec} maps (JSON
     *     in a Spring application), or null
     * @return the new instance's id
     * @throws InvalidScheduleException when an argument is refused (see the class comment)
     * @throws UnknownTaskException when no task has the name {@code handler}
     * @throws AxException when the engine has stopped
     */
    default String schedule(String handler, Duration delay, Object payload) {
        return schedule(ScheduleRequest.of(handler).after(delay).payload(payload));
    }

    /**
     * Runs {@code handler} once at {@code at}, PERSISTENT unless the handler is declared MEMORY. A time up to a second
     * in the past counts as now; an earlier one is refused (use {@link ScheduleRequest#allowPast()}).
     *
     * @param handler the name of an on-demand task
     * @param at when to run it
     * @param payload a {@code String}, a {@code byte[]}, an object the configured {@link PayloadCodec} maps, or null
     * @return the new instance's id
     * @throws InvalidScheduleException when an argument is refused (see the class comment)
     * @throws UnknownTaskException when no task has the name {@code handler}
     * @throws AxException when the engine has stopped
     */
    default String schedule(String handler, Instant at, Object payload) {
        return schedule(ScheduleRequest.of(handler).at(at).payload(payload));
    }

    /**
     * Schedules one execution. With a key that the handler already has an instance for (in any state, finished
     * included, as long as the store keeps it), returns that instance's id and writes nothing.
     *
     * @param request the execution to schedule
     * @return the new instance's id, or that of the instance with the same key
     * @throws InvalidScheduleException when the request is refused (see the class comment)
     * @throws UnknownTaskException when no task has the request's handler name
     * @throws AxException when the engine has stopped
     */
    default String schedule(ScheduleRequest request) {
        return scheduleAll(List.of(Objects.requireNonNull(request, "request"))).get(0);
    }

    /**
     * Schedules many executions, checking all of them before writing any, and writing them in a few round trips.
     * Requests of the same handler and key, in the batch or in the store, share one instance, as in {@link
     * #schedule(ScheduleRequest)}.
     *
     * @param requests the executions to schedule
     * @return the instance ids, in the order of {@code requests}
     * @throws InvalidScheduleException for the first request refused (see the class comment); nothing is written
     * @throws UnknownTaskException for the first request whose handler no task has; nothing is written
     * @throws AxException when the engine has stopped
     */
    List<String> scheduleAll(List<ScheduleRequest> requests);

    /**
     * Cancels a SCHEDULED instance of any origin. A cancelled instance never runs; if its fire time wins the race, the
     * instance runs and this returns false. A cancelled fire of a trigger does not stop the series: its next fire is
     * planned. Works on an engine that is not started.
     *
     * @param instanceId the instance's id
     * @return true if the instance is now CANCELLED; false if it is unknown, already started (RETRYING included) or
     *     finished
     */
    boolean cancel(String instanceId);

    /**
     * Moves a SCHEDULED one-shot execution to another time; its id, payload and key stay. The new time is checked
     * first, before the instance is looked up.
     *
     * @param instanceId the id of a delayed execution
     * @param newTime when it runs now; a time up to a second in the past counts as now
     * @return true if moved; false if it is unknown, already started or finished
     * @throws InvalidScheduleException when the time is null, past or beyond the {@link #HORIZON}, or the instance is
     *     no delayed execution (a trigger's fire, a run on demand, a workflow step)
     */
    boolean reschedule(String instanceId, Instant newTime);

    /**
     * Looks an instance up, in the store or in this process's MEMORY executions.
     *
     * @param instanceId the instance's id
     * @return the instance with its state, attempt and audit trail; empty if unknown
     */
    Optional<InstanceDetails> find(String instanceId);

    /**
     * Runs any task now, outside its trigger's schedule.
     *
     * @param taskName the task's name
     * @return the new instance's id
     * @throws UnknownTaskException when no task has that name
     * @throws AxException when the engine is not running
     */
    String triggerNow(String taskName);

    /**
     * Runs a task now with parameters for this run, laid over the task's own: only parameters the task declares may
     * be given (its values are the defaults), and the task's executor checks the result as it checks a definition.
     * The parameters are stored with the instance (its payload), so a retry or a replay runs with them too.
     *
     * @param taskName the task's name
     * @param params the run's parameters by name; no value may be null. Empty for a plain run now
     * @return the new instance's id
     * @throws UnknownTaskException when no task has that name
     * @throws InvalidTaskException when a parameter is not the task's or has no value, or the executor refuses the
     *     result
     * @throws AxException when the engine is not running
     */
    String triggerNow(String taskName, java.util.Map<String, String> params);

    /**
     * Pauses a task on every node (within a heartbeat) until {@link #resume}: its trigger's pending fire is CANCELLED
     * and its fire times create nothing meanwhile; its other instances that fall due (delayed executions, runs on
     * demand, workflow steps) wait. The flag is stored and survives a restart.
     *
     * @param taskName the task's name
     * @throws UnknownTaskException when no task has that name
     */
    void pause(String taskName);

    /**
     * Registers a task at runtime: it is stored (with an audited history), runs on this node at once and on every
     * node of the cluster within a heartbeat, and is loaded again at every start. Checked like a task in code: its
     * executor's {@code check} and the workflow rules; a cron expression is checked when its trigger is built.
     *
     * @param definition the task to register; its version, time and node are ignored
     * @return the stored definition, version 1
     * @throws InvalidTaskException when no executor runs it or it breaks a workflow rule
     * @throws AxException when the name is taken: by a task in code ({@code @AxJob}, {@code ax.tasks}), which a
     *     runtime definition never replaces, or by a runtime task (use {@link #update})
     */
    TaskDefinition register(TaskDefinition definition);

    /**
     * Replaces a task registered at runtime with a new definition of the same name, from its next fire time: the fire
     * the old definition planned is cancelled and the new trigger plans the next. Audited. Checked as {@link #register}
     * checks.
     *
     * @param definition the new definition; its version, time and node are ignored: the stored version is the base
     * @return the stored definition, one version higher
     * @throws UnknownTaskException when no runtime task has that name
     * @throws InvalidTaskException when no executor runs it or it breaks a workflow rule
     * @throws AxException when the name belongs to a task in code, or another node changed the task during this call
     */
    TaskDefinition update(TaskDefinition definition);

    /**
     * Removes a task registered at runtime, on every node within a heartbeat; its pending fires are cancelled, work
     * already running finishes. Audited.
     *
     * @param taskName the name of a task registered at runtime
     * @throws UnknownTaskException when no runtime task has that name
     * @throws InvalidTaskException when other tasks depend on it
     * @throws AxException when the name belongs to a task in code, or another node changed the task during this call
     */
    void unregister(String taskName);

    /** {@return the tasks registered at runtime, as the store holds them, in the order of their names} */
    List<TaskDefinition> list();

    /**
     * Resumes a paused task on every node (within a heartbeat): the instances that waited run now, and its trigger's
     * series goes on from now. Fire times that passed while it was paused are not made up.
     *
     * @param taskName the task's name
     * @throws UnknownTaskException when no task has that name
     */
    void resume(String taskName);
}
