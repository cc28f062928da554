package io.ax.autoconfigure;

import io.ax.core.AxException;

/**
 * AX settings that cannot work as set, thrown at start-up: which settings ({@code ax.pools.reports}, {@code
 * ax.cluster}, ...), why, and what to set instead.
 */
public final class InvalidAxSettingsException extends AxException {

    private final String settings;
    private final String fix;

    /**
     * @param settings the prefix of the settings at fault, e.g. {@code ax.cluster}
     * @param reason why they cannot work, naming the values
     * @param fix what to set instead
     * @param cause the failure that showed it, or null
     */
    public InvalidAxSettingsException(String settings, String reason, String fix, Throwable cause) {
        super("Invalid AX settings " + settings + ": " + reason, cause);
        this.settings = settings;
        this.fix = fix;
    }

    /** The prefix of the settings at fault, e.g. {@code ax.cluster}. */
    public String settings() {
        return settings;
    }

    /** What to set instead. */
    public String fix() {
        return fix;
    }
}
