package io.ax.core;

/**
 * A task definition that cannot run as written, found when it is defined (registered), never at its first fire:
 * for example a URL outside the HTTP allow-list, a script outside the script directory, or a type no executor
 * claims. Names the task, the attribute at fault and the reason.
 */
public final class InvalidTaskException extends AxException {

    private final String taskName;
    private final String attribute;
    private final String reason;

    /**
     * @param taskName the task
     * @param attribute the attribute at fault, such as {@code target}, {@code type} or {@code params.method}
     * @param reason what is wrong and, where it helps, how to fix it; must not contain secrets
     */
    public InvalidTaskException(String taskName, String attribute, String reason) {
        super("Task " + Quoted.of(taskName) + ": attribute '" + attribute + "': " + reason);
        this.taskName = taskName;
        this.attribute = attribute;
        this.reason = reason;
    }

    public String taskName() {
        return taskName;
    }

    public String attribute() {
        return attribute;
    }

    /** The reason alone, without the task and attribute. */
    public String reason() {
        return reason;
    }
}
