package io.ax.core;

import java.time.Instant;

/** Thrown when an instance for the same task and scheduled time already exists. */
public final class DuplicateInstanceException extends AxException {

    private final String taskName;
    private final Instant scheduledTime;

    public DuplicateInstanceException(String taskName, Instant scheduledTime) {
        super("An instance of task '" + taskName + "' for " + scheduledTime + " already exists");
        this.taskName = taskName;
        this.scheduledTime = scheduledTime;
    }

    public String taskName() {
        return taskName;
    }

    public Instant scheduledTime() {
        return scheduledTime;
    }
}
