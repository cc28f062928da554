package io.ax.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a start-up stopped by keys under {@code ax.} that no setting reads ({@code ax.strict-properties}). */
final class UnknownAxPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<UnknownAxPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnknownAxPropertiesException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.fix(), cause);
    }
}
