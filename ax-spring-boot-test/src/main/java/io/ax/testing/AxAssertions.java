package io.ax.testing;

import io.ax.core.DeadLetter;
import io.ax.core.InstanceDetails;

/**
 * AssertJ assertions on what the engine did: {@code assertThat(ax.runNow("report")).succeeded().hasAttempts(1)}.
 * Import them statically beside AssertJ's own {@code assertThat}; Java picks these for AX's types.
 */
public final class AxAssertions {

    private AxAssertions() {}

    /**
     * Starts assertions on an instance and its audit trail.
     *
     * @param actual the instance, as {@link AxTester#runNow} or {@link AxTester#awaitEnd} returns it
     * @return the assertions
     */
    public static InstanceAssert assertThat(InstanceDetails actual) {
        return new InstanceAssert(actual);
    }

    /**
     * Starts assertions on a dead letter.
     *
     * @param actual the dead letter, as {@link AxTester#deadLetter} finds it
     * @return the assertions
     */
    public static DeadLetterAssert assertThat(DeadLetter actual) {
        return new DeadLetterAssert(actual);
    }
}
