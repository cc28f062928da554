package io.ax.core;

/**
 * A task definition that cannot run as written, found when it is defined (registered), never at its first fire:
 * for example a URL outside the HTTP allow-list, a script outside the script directory, or a type no executor
 * claims. Names the task, the attribute at fault and the reason.
 */
public final class InvalidTaskException extends AxException {

    /** The task's name. */
    private final String taskName;
    /** The attribute at fault. */
    private final String attribute;
    /** What is wrong. */
    private final String reason;

    /**
     * An exception whose message names the task (quoted and bounded), the attribute and the reason.
     *
     * @param taskName the task's name
     * @param attribute the attribute at fault, such as {@code target}, {@code type} or {@code params.method}
     * @param reason what is wrong and, where it helps, how to fix it; must not contain secrets
     */
    public InvalidTaskException(String taskName, String attribute, String reason) {
        super("Task " + Quoted.of(taskName) + ": attribute '" + attribute + "': " + reason);
        this.taskName = taskName;
        this.attribute = attribute;
        this.reason = reason;
    }

    /** {@return the task's name} */
    public String taskName() {
        return taskName;
    }

    /** {@return the attribute at fault, such as {@code target}, {@code type} or {@code params.method}} */
    public String attribute() {
        return attribute;
    }

    /** {@return the reason alone, without the task and attribute} */
    public String reason() {
        return reason;
    }
}
