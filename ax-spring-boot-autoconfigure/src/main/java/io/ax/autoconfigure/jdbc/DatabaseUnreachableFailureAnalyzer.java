package io.ax.autoconfigure.jdbc;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a start-up stopped because the database AX keeps its instances in does not answer. */
final class DatabaseUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<DatabaseUnreachableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DatabaseUnreachableException cause) {
        return new FailureAnalysis(
                cause.getMessage(),
                "Check spring.datasource.url, spring.datasource.username and spring.datasource.password, and that the"
                        + " database runs and accepts connections from this host. To keep AX's instances in memory"
                        + " instead (lost at a restart), set ax.jdbc.enabled=false.",
                cause);
    }
}
