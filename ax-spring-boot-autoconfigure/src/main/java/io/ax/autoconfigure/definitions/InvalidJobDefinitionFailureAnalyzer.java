package io.ax.autoconfigure.definitions;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a start-up failure caused by an invalid {@code @AxJob} or {@code ax.tasks} entry. */
final class InvalidJobDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidJobDefinitionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidJobDefinitionException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.fix(), cause);
    }
}
