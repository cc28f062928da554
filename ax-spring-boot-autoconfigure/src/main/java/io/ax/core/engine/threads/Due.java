package io.ax.core.engine.threads;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.Partitions;
import java.time.Instant;
import java.util.Objects;

/**
 * One instance waiting to be dispatched.
 *
 * @param task its task
 * @param instanceId the instance
 * @param scheduledTime its fire time
 * @param origin what made it
 * @param attempt the attempt its next dispatch starts (1 unless an assignment was taken back from a node)
 * @param traceParent the trace its attempts continue ({@link TaskInstance#traceParent()}), or null
 * @param requestedPriority the priority its request gave it ({@link TaskInstance#priority()}), or null for its task's
 * @param partitionKey the key of the partition its row is in ({@link Partitions#key}): which epoch a decision about it
 *     is fenced by
 * @param key the delayed execution's key ({@link TaskInstance#key()}), or null: what a mutex's {@code ${key}} stands
 *     for
 */
public record Due(
        AxTask task,
        String instanceId,
        Instant scheduledTime,
        InstanceOrigin origin,
        int attempt,
        String traceParent,
        Integer requestedPriority,
        String partitionKey,
        String key) {

    public Due {
        Objects.requireNonNull(partitionKey, "partitionKey");
    }

    /**
     * A due instance without a trace to continue: a trigger's fire, a catch-up or a run on demand, in its task's
     * partition.
     *
     * @throws IllegalArgumentException for an origin whose partition key is not the task's name (a delayed execution,
     *     a workflow step): make those from their {@link TaskInstance}
     */
    public Due(AxTask task, String instanceId, Instant scheduledTime, InstanceOrigin origin) {
        this(task, instanceId, scheduledTime, origin, 1, null, null, taskKey(task, origin), null);
    }

    private static String taskKey(AxTask task, InstanceOrigin origin) {
        return switch (origin) {
            case SERIES, CATCH_UP, ON_DEMAND -> task.name();
            case WORKFLOW, DELAYED ->
                throw new IllegalArgumentException(
                        "the partition of a " + origin + " instance is not its task's: make its Due from its row");
        };
    }

    /**
     * A stored instance of {@code task}, due for the attempt it holds: its first, or the one its node gave back
     * unstarted (a node that stopped, or was cut off, moves an acknowledged attempt RUNNING -&gt; SCHEDULED with its
     * number; run again as attempt 1, that attempt would run twice).
     */
    public Due(AxTask task, TaskInstance instance) {
        this(task, instance, Math.max(1, instance.attempt()));
    }

    /** A stored instance of {@code task}, due for {@code attempt}. */
    public Due(AxTask task, TaskInstance instance, int attempt) {
        this(
                task,
                instance.id(),
                instance.scheduledTime(),
                instance.origin(),
                attempt,
                instance.traceParent(),
                instance.priority(),
                Partitions.key(instance),
                instance.key());
    }

    /** This instance as {@code origin} (a catch-up of a missed fire, a replay run on its own), in the same partition. */
    public Due as(InstanceOrigin origin) {
        return new Due(
                task, instanceId, scheduledTime, origin, attempt, traceParent, requestedPriority, partitionKey, key);
    }

    /** Which of its pool's waiting instances start first: its request's priority, else its task's. */
    public int priority() {
        return requestedPriority != null ? requestedPriority : task.priority();
    }

    public boolean series() {
        return origin == InstanceOrigin.SERIES;
    }
}
