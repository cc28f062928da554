package io.ax.autoconfigure;

import io.ax.core.AxException;

/** An {@code @AxJob} that cannot run as written; thrown at start-up, naming the method, the attribute and why. */
public final class InvalidJobDefinitionException extends AxException {

    private final String method;
    private final String attribute;

    InvalidJobDefinitionException(String method, String attribute, String reason) {
        super("Invalid @AxJob on " + method + ": attribute '" + attribute + "': " + reason);
        this.method = method;
        this.attribute = attribute;
    }

    /** The annotated method, as {@code com.example.Jobs.report()}. */
    public String method() {
        return method;
    }

    /** The attribute at fault, e.g. {@code cron}. */
    public String attribute() {
        return attribute;
    }
}
