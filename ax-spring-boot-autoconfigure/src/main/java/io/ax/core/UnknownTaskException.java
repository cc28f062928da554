package io.ax.core;

/** Thrown when an operation names a task that is not registered. */
public final class UnknownTaskException extends AxException {

    private final String taskName;

    public UnknownTaskException(String taskName) {
        super("Unknown task " + Quoted.of(taskName));
        this.taskName = taskName;
    }

    public String taskName() {
        return taskName;
    }
}
