package io.ax.testing;

import io.ax.core.AttemptError;
import io.ax.core.DeadLetter;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a dead letter: the attempts' errors and the last stack trace. */
public final class DeadLetterAssert extends AbstractAssert<DeadLetterAssert, DeadLetter> {

    DeadLetterAssert(DeadLetter actual) {
        super(actual, DeadLetterAssert.class);
    }

    /**
     * Asserts that the dead letter records {@code attempts} attempts, each with its error.
     *
     * @param attempts the expected number of failed or timed-out attempts
     * @return this assertion, for chaining
     */
    public DeadLetterAssert hasAttempts(int attempts) {
        isNotNull();
        if (actual.attempts().size() != attempts) {
            failWithMessage(
                    "Expected the dead letter of %s to record %d attempt(s), but it records %s",
                    actual.instanceId(), attempts, actual.attempts());
        }
        return this;
    }

    /**
     * Asserts that the last attempt's error contains {@code text}.
     *
     * @param text what the error must contain
     * @return this assertion, for chaining
     */
    public DeadLetterAssert lastErrorContains(String text) {
        isNotNull();
        String last = actual.attempts().isEmpty()
                ? ""
                : actual.attempts().get(actual.attempts().size() - 1).error();
        if (last == null || !last.contains(text)) {
            failWithMessage(
                    "Expected the last error of the dead letter of %s to contain '%s', but it was '%s'",
                    actual.instanceId(), text, last);
        }
        return this;
    }

    /**
     * Asserts that every attempt's error contains {@code text}.
     *
     * @param text what each error must contain
     * @return this assertion, for chaining
     */
    public DeadLetterAssert everyErrorContains(String text) {
        isNotNull();
        for (AttemptError e : actual.attempts()) {
            if (e.error() == null || !e.error().contains(text)) {
                failWithMessage(
                        "Expected every error of the dead letter of %s to contain '%s', but attempt %d's was '%s'",
                        actual.instanceId(), text, e.attempt(), e.error());
            }
        }
        return this;
    }

    /**
     * Asserts that the stack trace of the last failure contains {@code text}. When the last attempt timed out or
     * returned a failure, the dead letter holds its reason instead of a stack trace.
     *
     * @param text what the stack trace must contain, such as a class or method name
     * @return this assertion, for chaining
     */
    public DeadLetterAssert stackTraceContains(String text) {
        isNotNull();
        if (!actual.lastStackTrace().contains(text)) {
            failWithMessage(
                    "Expected the stack trace in the dead letter of %s to contain '%s', but it was:%n%s",
                    actual.instanceId(), text, actual.lastStackTrace());
        }
        return this;
    }
}
