package io.ax.executor;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the {@link ShellExecutor}.
 *
 * @param enabled whether SHELL tasks may run at all; false (the default in Spring) refuses every SHELL task when it
 *     is defined
 * @param scriptDir the only directory scripts are run from; required when enabled
 * @param workingDir the working directory of the scripts; null means the script directory
 * @param environment names of the variables of this process that scripts inherit; all others are withheld
 * @param maxOutput how many bytes of stdout and of stderr (each) are kept and recorded; the rest is counted and
 *     dropped
 */
public record ShellSettings(boolean enabled, Path scriptDir, Path workingDir, List<String> environment, int maxOutput) {

    public ShellSettings {
        environment = List.copyOf(Objects.requireNonNull(environment, "environment"));
        if (enabled) {
            Objects.requireNonNull(scriptDir, "ax.shell.script-dir must be set when ax.shell.enabled=true");
        }
        if (maxOutput < 0) {
            throw new IllegalArgumentException("ax.shell.max-output must be >= 0, was " + maxOutput);
        }
    }

    /** SHELL tasks refused. */
    public static ShellSettings disabled() {
        return new ShellSettings(false, null, null, List.of(), 0);
    }
}
