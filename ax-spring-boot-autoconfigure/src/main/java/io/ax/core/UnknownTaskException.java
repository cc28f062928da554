package io.ax.core;

/** Thrown when an operation names a task that is not registered. */
public final class UnknownTaskException extends AxException {

    /** The name as the caller gave it. */
    private final String taskName;

    /**
     * An exception naming the task, quoted and bounded.
     *
     * @param taskName the name as the caller gave it
     */
    public UnknownTaskException(String taskName) {
        super("Unknown task " + Quoted.of(taskName));
        this.taskName = taskName;
    }

    /** {@return the name as the caller gave it} */
    public String taskName() {
        return taskName;
    }
}
