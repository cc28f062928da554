package io.ax.testing;

import io.ax.core.DeadLetter;
import io.ax.core.InstanceDetails;

/**
 * AssertJ assertions on what the engine did: {@code assertThat(ax.runNow("report")).succeeded().hasAttempts(1)}.
 * Import them statically beside AssertJ's own {@code assertThat}; Java picks these for AX's types.
 */
public final class AxAssertions {

    private AxAssertions() {}

    /** Assertions on an instance and its audit trail. */
    public static InstanceAssert assertThat(InstanceDetails actual) {
        return new InstanceAssert(actual);
    }

    /** Assertions on a dead letter. */
    public static DeadLetterAssert assertThat(DeadLetter actual) {
        return new DeadLetterAssert(actual);
    }
}
