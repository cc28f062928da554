package io.ax.testing;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/** Assertions on an instance; each failure shows the instance with its whole audit trail. */
public final class InstanceAssert extends AbstractAssert<InstanceAssert, InstanceDetails> {

    InstanceAssert(InstanceDetails actual) {
        super(actual, InstanceAssert.class);
    }

    /**
     * Asserts that the instance ended in SUCCESS.
     *
     * @return this assertion, for chaining
     */
    public InstanceAssert succeeded() {
        return isIn(InstanceState.SUCCESS);
    }

    /**
     * Asserts that the instance went DEAD: its retries ran out (its dead letter: {@link AxTester#deadLetter}).
     *
     * @return this assertion, for chaining
     */
    public InstanceAssert died() {
        return isIn(InstanceState.DEAD);
    }

    /**
     * Asserts that the instance was CANCELLED.
     *
     * @return this assertion, for chaining
     */
    public InstanceAssert wasCancelled() {
        return isIn(InstanceState.CANCELLED);
    }

    /**
     * Asserts that the instance was SKIPPED.
     *
     * @return this assertion, for chaining
     */
    public InstanceAssert wasSkipped() {
        return isIn(InstanceState.SKIPPED);
    }

    /**
     * Asserts that the instance is in {@code state}, as it was read.
     *
     * @param state the expected state
     * @return this assertion, for chaining
     */
    public InstanceAssert isIn(InstanceState state) {
        isNotNull();
        if (actual.instance().state() != state) {
            failWithMessage("Expected %s to be %s, but it is %s", AxTester.describe(actual), state, state());
        }
        return this;
    }

    /**
     * Asserts that the instance's last attempt was number {@code attempts}. After a replay, attempts count again from
     * 1.
     *
     * @param attempts the expected attempt number: 1 when it needed no retry
     * @return this assertion, for chaining
     */
    public InstanceAssert hasAttempts(int attempts) {
        isNotNull();
        if (actual.instance().attempt() != attempts) {
            failWithMessage(
                    "Expected %s to have made %d attempt(s), but it made %d",
                    AxTester.describe(actual), attempts, actual.instance().attempt());
        }
        return this;
    }

    /**
     * Its audit trail passed through these states in this order (others may come between them): {@code
     * wentThrough(RUNNING, FAILED, RETRYING, RUNNING, SUCCESS)}.
     *
     * @param states the states, in the order the trail must reach them
     * @return this assertion, for chaining
     */
    public InstanceAssert wentThrough(InstanceState... states) {
        isNotNull();
        List<InstanceState> path =
                actual.auditTrail().stream().map(AuditEntry::to).toList();
        int found = 0;
        for (InstanceState s : path) {
            if (found < states.length && s == states[found]) {
                found++;
            }
        }
        if (found < states.length) {
            failWithMessage(
                    "Expected %s to have gone through %s in this order, but its states were %s",
                    AxTester.describe(actual), Arrays.toString(states), path);
        }
        return this;
    }

    /**
     * Asserts that an attempt failed or timed out with an error whose text contains {@code text}.
     *
     * @param text what the error must contain, such as the exception's message
     * @return this assertion, for chaining
     */
    public InstanceAssert failedWith(String text) {
        isNotNull();
        boolean found = actual.auditTrail().stream()
                .anyMatch(e -> (e.to() == InstanceState.FAILED || e.to() == InstanceState.TIMEOUT)
                        && e.reason().contains(text));
        if (!found) {
            failWithMessage("Expected an attempt of %s to have failed with '%s'", AxTester.describe(actual), text);
        }
        return this;
    }

    /**
     * Asserts that no attempt failed or timed out.
     *
     * @return this assertion, for chaining
     */
    public InstanceAssert neverFailed() {
        isNotNull();
        if (actual.auditTrail().stream()
                .anyMatch(e -> e.to() == InstanceState.FAILED || e.to() == InstanceState.TIMEOUT)) {
            failWithMessage("Expected no attempt of %s to have failed", AxTester.describe(actual));
        }
        return this;
    }

    private InstanceState state() {
        return actual.instance().state();
    }
}
