package io.ax.autoconfigure;

import java.time.Duration;

/**
 * Checks of single {@code ax.*} values before they reach the engine or a store, whose own checks name their fields,
 * not the properties. A value that cannot work fails with an {@link InvalidAxSettingsException} that names the
 * property, the rule and the value, and says what the property means and its default.
 */
public final class SettingChecks {

    private SettingChecks() {}

    /**
     * @param property the full name, e.g. {@code ax.misfire.max-catch-up}
     * @param meaning what the property sets, as the object of "Set the property to ..."
     * @param byDefault the default, as it is written in a properties file
     * @return {@code value}, when it is {@code min} or more
     */
    static int atLeast(int min, String property, int value, String meaning, String byDefault) {
        if (value < min) {
            throw invalid(property, "must be " + min + " or more, was " + value, meaning, byDefault);
        }
        return value;
    }

    /** Returns {@code value}, when it is set and longer than zero; see {@link #atLeast} for the arguments. */
    static Duration positive(String property, Duration value, String meaning, String byDefault) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw invalid(property, "must be positive, was " + value, meaning, byDefault);
        }
        return value;
    }

    /** Returns {@code value}, when it is set and zero or longer; see {@link #atLeast} for the arguments. */
    static Duration notNegative(String property, Duration value, String meaning, String byDefault) {
        if (value == null || value.isNegative()) {
            throw invalid(property, "must not be negative, was " + value, meaning, byDefault);
        }
        return value;
    }

    /** A value of {@code property} that breaks {@code rule}; the settings at fault are the property's group. */
    public static InvalidAxSettingsException invalid(String property, String rule, String meaning, String byDefault) {
        return new InvalidAxSettingsException(
                property.substring(0, property.lastIndexOf('.')),
                property + " " + rule,
                "Set " + property + " to " + meaning + " (the default is " + byDefault + ").",
                null);
    }
}
