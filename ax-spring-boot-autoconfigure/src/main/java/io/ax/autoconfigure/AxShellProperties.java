package io.ax.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** Settings of the shell executor (task type SHELL), under {@code ax.shell}; disabled unless enabled. */
@ConfigurationProperties("ax.shell")
public class AxShellProperties {

    /** Whether SHELL tasks may run at all; while false every SHELL task fails at start-up. */
    private boolean enabled = false;

    /** The only directory scripts are run from (symbolic links out of it are refused); required when enabled. */
    private Path scriptDir;

    /** Working directory of the scripts; default the script directory. */
    private Path workingDir;

    /** Environment variables of this process that scripts inherit; all others are withheld. */
    private List<String> environment = new ArrayList<>(List.of("PATH", "LANG"));

    /** How much of stdout and of stderr (each) is kept and recorded; the rest is counted and dropped. */
    private DataSize maxOutput = DataSize.ofKilobytes(64);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Path getScriptDir() {
        return scriptDir;
    }

    public void setScriptDir(Path scriptDir) {
        this.scriptDir = scriptDir;
    }

    public Path getWorkingDir() {
        return workingDir;
    }

    public void setWorkingDir(Path workingDir) {
        this.workingDir = workingDir;
    }

    public List<String> getEnvironment() {
        return environment;
    }

    public void setEnvironment(List<String> environment) {
        this.environment = environment;
    }

    public DataSize getMaxOutput() {
        return maxOutput;
    }

    public void setMaxOutput(DataSize maxOutput) {
        this.maxOutput = maxOutput;
    }
}
