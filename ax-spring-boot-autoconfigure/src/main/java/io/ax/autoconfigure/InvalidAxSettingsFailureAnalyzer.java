package io.ax.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a start-up stopped by AX settings that cannot work as set: which ones, why, and what to set. */
final class InvalidAxSettingsFailureAnalyzer extends AbstractFailureAnalyzer<InvalidAxSettingsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidAxSettingsException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.fix(), cause);
    }
}
