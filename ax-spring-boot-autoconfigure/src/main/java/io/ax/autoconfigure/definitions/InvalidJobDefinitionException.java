package io.ax.autoconfigure.definitions;

import io.ax.core.AxException;

/**
 * A task definition that cannot run as written, an {@code @AxJob}, an {@code ax.tasks.<name>} entry or an adopted
 * schedule; thrown at start-up, naming the definition, the attribute and why. All kinds of definition give the same
 * reasons.
 */
public final class InvalidJobDefinitionException extends AxException {

    private final String method;
    private final String definition;
    private final String attribute;
    private final String fix;

    private InvalidJobDefinitionException(
            String method, String definition, String attribute, String reason, String fix) {
        super("Invalid " + definition + ": attribute '" + attribute + "': " + reason);
        this.method = method;
        this.definition = definition;
        this.attribute = attribute;
        this.fix = fix;
    }

    /** An invalid {@code @AxJob} on {@code method}. */
    InvalidJobDefinitionException(String method, String attribute, String reason) {
        this(
                method,
                "@AxJob on " + method,
                attribute,
                reason,
                "Fix attribute '" + attribute + "' of the @AxJob on " + method + ".");
    }

    /** An invalid {@code ax.tasks.<name>} entry. */
    static InvalidJobDefinitionException ofProperties(String taskKey, String attribute, String reason) {
        String property = "ax.tasks." + taskKey + "." + attribute;
        return new InvalidJobDefinitionException(
                null, "task ax.tasks." + taskKey, attribute, reason, "Fix property " + property + ".");
    }

    /**
     * A schedule of another scheduler that AX cannot adopt as written.
     *
     * @param origin what it is, as {@code @Scheduled on com.example.Jobs.report()} or {@code Quartz trigger
     *     DEFAULT.nightly}
     * @param attribute the attribute at fault, as that scheduler names it ({@code cron}, {@code misfireInstruction})
     * @param reason why
     * @return the exception that fails start-up
     */
    public static InvalidJobDefinitionException ofAdopted(String origin, String attribute, String reason) {
        return new InvalidJobDefinitionException(
                null,
                origin,
                attribute,
                reason,
                "Fix attribute '" + attribute + "' of the " + origin
                        + ", or leave it out of the adoption (see ax.adopt.*).");
    }

    /** The annotated method, as {@code com.example.Jobs.report()}; null for a task defined in properties. */
    public String method() {
        return method;
    }

    /** What is invalid, as {@code @AxJob on com.example.Jobs.report()} or {@code task ax.tasks.report}. */
    public String definition() {
        return definition;
    }

    /** The attribute at fault, e.g. {@code cron} (of an {@code @AxJob}) or {@code trigger.cron} (of a property). */
    public String attribute() {
        return attribute;
    }

    /** What to change, for the failure analysis. */
    String fix() {
        return fix;
    }
}
