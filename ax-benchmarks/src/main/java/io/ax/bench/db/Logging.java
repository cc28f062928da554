package io.ax.bench.db;

import io.ax.bench.Options;

/**
 * AX logs through {@link System.Logger}, which this jar routes to slf4j-simple. AX writes one INFO line per
 * finished instance: at thousands of executions a second that is what a user would turn down first, so the
 * database scenarios set {@code io.ax} to WARN unless {@code --ax-info-log=true}. HikariCP's pool start and stop
 * lines are turned down too. Must run before the first logger is created.
 */
public final class Logging {

    private Logging() {}

    /** Sets the levels; returns whether AX's INFO log stays on. */
    public static boolean configure(Options options) {
        boolean axInfo = Boolean.parseBoolean(options.get("ax-info-log", "false"));
        if (!axInfo) {
            System.setProperty("org.slf4j.simpleLogger.log.io.ax", "warn");
        }
        System.setProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "warn");
        return axInfo;
    }
}
