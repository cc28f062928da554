package io.ax.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A snapshot of one execution of a task for one scheduled time. The id stays the same across retries.
 *
 * @param id unique id
 * @param taskName the task's name
 * @param scheduledTime the fire time this instance belongs to; unique per task
 * @param state the state when the snapshot was taken
 * @param attempt the current attempt, 1-based; 0 before the first dispatch
 * @param node the node that last changed it
 * @param updatedAt when it last changed
 * @param origin what made it
 * @param key its unique key within the task, or null: a trigger's fire is keyed by its fire time ({@link
 *     #fireKey}), a workflow step by its run ({@link #runKey}, {@link #blockedKey}), a delayed execution by the
 *     caller's key if one was given; no two instances of a task share a key
 * @param traceParent the W3C {@code traceparent} of the trace that scheduled it, or null: the span that was current
 *     when {@link AxScheduler} was called, which each attempt's span continues; see {@code TraceContextCapture}
 * @param priority the priority its request gave it ({@link ScheduleRequest#priority(int)}), or null for its task's
 */
public record TaskInstance(
        String id,
        String taskName,
        Instant scheduledTime,
        InstanceState state,
        int attempt,
        String node,
        Instant updatedAt,
        InstanceOrigin origin,
        String key,
        String traceParent,
        Integer priority) {

    /** The longest key a store accepts, in characters. */
    public static final int MAX_KEY_LENGTH = 200;

    /** The longest trace parent a store accepts: a W3C {@code traceparent} of version 00 has 55 characters. */
    public static final int MAX_TRACE_PARENT_LENGTH = 128;

    /**
     * An instance of its task's priority.
     *
     * @param id unique id
     * @param taskName the task's name
     * @param scheduledTime the fire time this instance belongs to
     * @param state its state
     * @param attempt the current attempt, 1-based; 0 before the first dispatch
     * @param node the node that last changed it
     * @param updatedAt when it last changed
     * @param origin what made it
     * @param key its unique key within the task, or null
     * @param traceParent the W3C {@code traceparent} of the trace that scheduled it, or null
     * @throws NullPointerException when a component other than {@code key} and {@code traceParent} is null
     * @throws IllegalArgumentException when a component breaks its rule (see the canonical constructor)
     */
    public TaskInstance(
            String id,
            String taskName,
            Instant scheduledTime,
            InstanceState state,
            int attempt,
            String node,
            Instant updatedAt,
            InstanceOrigin origin,
            String key,
            String traceParent) {
        this(id, taskName, scheduledTime, state, attempt, node, updatedAt, origin, key, traceParent, null);
    }

    /**
     * An instance made without a trace to continue, of its task's priority.
     *
     * @param id unique id
     * @param taskName the task's name
     * @param scheduledTime the fire time this instance belongs to
     * @param state its state
     * @param attempt the current attempt, 1-based; 0 before the first dispatch
     * @param node the node that last changed it
     * @param updatedAt when it last changed
     * @param origin what made it
     * @param key its unique key within the task, or null
     * @throws NullPointerException when a component other than {@code key} is null
     * @throws IllegalArgumentException when a component breaks its rule (see the canonical constructor)
     */
    public TaskInstance(
            String id,
            String taskName,
            Instant scheduledTime,
            InstanceState state,
            int attempt,
            String node,
            Instant updatedAt,
            InstanceOrigin origin,
            String key) {
        this(id, taskName, scheduledTime, state, attempt, node, updatedAt, origin, key, null);
    }

    /**
     * A trigger's fire ({@link InstanceOrigin#SERIES}), keyed by its fire time ({@link #fireKey}), without a trace to
     * continue, of its task's priority.
     *
     * @param id unique id
     * @param taskName the task's name
     * @param scheduledTime the fire time this instance belongs to
     * @param state its state
     * @param attempt the current attempt, 1-based; 0 before the first dispatch
     * @param node the node that last changed it
     * @param updatedAt when it last changed
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code attempt} is negative
     */
    public TaskInstance(
            String id,
            String taskName,
            Instant scheduledTime,
            InstanceState state,
            int attempt,
            String node,
            Instant updatedAt) {
        this(
                id,
                taskName,
                scheduledTime,
                state,
                attempt,
                node,
                updatedAt,
                InstanceOrigin.SERIES,
                fireKey(scheduledTime));
    }

    /**
     * Checks the components.
     *
     * @param id unique id; not null
     * @param taskName the task's name; not null
     * @param scheduledTime the fire time this instance belongs to; not null
     * @param state its state; not null
     * @param attempt the current attempt; 0 or more
     * @param node the node that last changed it; not null
     * @param updatedAt when it last changed; not null
     * @param origin what made it; not null
     * @param key null, or 1 to {@value #MAX_KEY_LENGTH} characters
     * @param traceParent null, or 1 to {@value #MAX_TRACE_PARENT_LENGTH} characters
     * @param priority null, or from {@value AxTask#MIN_PRIORITY} to {@value AxTask#MAX_PRIORITY}
     * @throws NullPointerException when a component other than {@code key}, {@code traceParent} and {@code priority} is
     *     null
     * @throws IllegalArgumentException when a component breaks its rule
     */
    public TaskInstance {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(taskName, "taskName");
        Objects.requireNonNull(scheduledTime, "scheduledTime");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(origin, "origin");
        if (key != null && (key.isEmpty() || key.length() > MAX_KEY_LENGTH)) {
            throw new IllegalArgumentException(
                    "a key must have 1 to " + MAX_KEY_LENGTH + " characters, had " + key.length());
        }
        if (traceParent != null && (traceParent.isEmpty() || traceParent.length() > MAX_TRACE_PARENT_LENGTH)) {
            throw new IllegalArgumentException("a trace parent must have 1 to " + MAX_TRACE_PARENT_LENGTH
                    + " characters, had " + traceParent.length());
        }
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0, was " + attempt);
        }
        if (priority != null) {
            AxTask.checkPriority(priority, "priority of instance " + id);
        }
    }

    /**
     * A copy in another state; it does not check that the state machine allows the move (a {@link Transition} does).
     *
     * @param newState the new state
     * @param newAttempt the attempt number in the new state
     * @param byNode the node making the change
     * @param at when it changed
     * @return the copy
     */
    public TaskInstance with(InstanceState newState, int newAttempt, String byNode, Instant at) {
        return new TaskInstance(
                id, taskName, scheduledTime, newState, newAttempt, byNode, at, origin, key, traceParent, priority);
    }

    /**
     * A copy due at another time (a rescheduled delayed execution); its key stays.
     *
     * @param newTime the new due time
     * @param byNode the node making the change
     * @param at when it changed
     * @return the copy
     */
    public TaskInstance dueAt(Instant newTime, String byNode, Instant at) {
        return new TaskInstance(id, taskName, newTime, state, attempt, byNode, at, origin, key, traceParent, priority);
    }

    /**
     * The key of a trigger's fire at {@code fireTime}: {@code @} and the time in microseconds since the epoch. Keys
     * a caller gives may not start with {@code @}, so the two never meet.
     *
     * @param fireTime the fire time
     * @return the key, such as {@code @1767225600000000}
     */
    public static String fireKey(Instant fireTime) {
        return "@" + ChronoUnit.MICROS.between(Instant.EPOCH, fireTime);
    }

    private static final String RUN_PREFIX = "@run:";
    private static final String BLOCKED_PREFIX = "@blocked:";

    /**
     * The key of a workflow step's instance in run {@code runId}: the store's unique (task, key) makes the step run
     * once per run, however many upstream ends arrive together.
     *
     * @param runId the workflow run's id
     * @return the key, {@code @run:} and the run's id
     */
    public static String runKey(String runId) {
        return RUN_PREFIX + runId;
    }

    /**
     * The key of the SKIPPED record of a workflow step that an upstream failure blocked in run {@code runId}. Apart
     * from {@link #runKey}: a replayed upstream that succeeds still creates the step itself.
     *
     * @param runId the workflow run's id
     * @return the key, {@code @blocked:} and the run's id
     */
    public static String blockedKey(String runId) {
        return BLOCKED_PREFIX + runId;
    }

    /**
     * {@return the workflow run a step's instance belongs to, read from its key; null for any other instance} A run's
     * root instance carries no run key: its own id is the run id.
     */
    public String runId() {
        if (key == null) {
            return null;
        }
        if (key.startsWith(RUN_PREFIX)) {
            return key.substring(RUN_PREFIX.length());
        }
        if (key.startsWith(BLOCKED_PREFIX)) {
            return key.substring(BLOCKED_PREFIX.length());
        }
        return null;
    }
}
