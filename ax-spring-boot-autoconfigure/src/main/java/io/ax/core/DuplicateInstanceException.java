package io.ax.core;

import java.time.Instant;

/**
 * Thrown by a store asked to create an instance whose key its task already has (a trigger's fire is keyed by its fire
 * time, see {@link TaskInstance#key()}).
 */
public final class DuplicateInstanceException extends AxException {

    /** The task's name. */
    private final String taskName;
    /** The scheduled time of the instance that was not created. */
    private final Instant scheduledTime;

    /**
     * An exception naming the task and the scheduled time of the instance that was not created.
     *
     * @param taskName the task's name
     * @param scheduledTime the scheduled time of the instance that was not created
     */
    public DuplicateInstanceException(String taskName, Instant scheduledTime) {
        super("An instance of task '" + taskName + "' for " + scheduledTime + " already exists");
        this.taskName = taskName;
        this.scheduledTime = scheduledTime;
    }

    /** {@return the task's name} */
    public String taskName() {
        return taskName;
    }

    /** {@return the scheduled time of the instance that was not created} */
    public Instant scheduledTime() {
        return scheduledTime;
    }
}
