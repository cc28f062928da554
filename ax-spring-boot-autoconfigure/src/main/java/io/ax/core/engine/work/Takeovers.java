package io.ax.core.engine.work;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.StateWriter;

/**
 * The rule for attempts that end with their node (it crashed, froze, was cut off from the store, or restarted while
 * they ran): such an attempt is not a failure of its handler, so it runs again at once, whatever the task's retry
 * policy says, up to {@link #bound} times per instance; the next takeover makes it DEAD. Its takeovers use up none of
 * the retries the policy gives the handler's own failures.
 *
 * <p>The count of an instance's takeovers is the count of its takeover rows in the audit trail since it was created or
 * last replayed ({@link AuditEntry#takeoversSinceReplay}): read in one batched read for a group of attempts taken
 * over together, and for a handler's failure only when its attempt number alone says its retries are used up. So an
 * attempt that fails while its retries last costs no read, and no column of the instance row has to follow it.
 */
public final class Takeovers {

    /** The bound when none is set: a node's crash runs the attempt again, a crash loop of its handler does not. */
    public static final int DEFAULT_BOUND = 3;

    private final int bound;

    /**
     * @param bound how many takeovers of one instance run it again; 0 makes the first takeover DEAD
     * @throws IllegalArgumentException when {@code bound} is negative
     */
    public Takeovers(int bound) {
        if (bound < 0) {
            throw new IllegalArgumentException("takeovers must be >= 0, was " + bound);
        }
        this.bound = bound;
    }

    /** {@return how many takeovers of one instance run it again} */
    public int bound() {
        return bound;
    }

    /** The reason of the RUNNING -&gt; FAILED row of a takeover: marked, for people and programs to tell. */
    static String reason(String what) {
        return AuditEntry.TAKEOVER + what;
    }

    /**
     * What follows the {@code count}th takeover of {@code ex}'s instance, recorded FAILED: the next attempt at once
     * while the bound allows it, else DEAD.
     */
    Transition next(StateWriter writer, Execution ex, int count) {
        if (count <= bound) {
            return writer.owned(
                    ex.instanceId(),
                    InstanceState.FAILED,
                    InstanceState.RETRYING,
                    ex.attempt,
                    "attempt " + (ex.attempt + 1) + " now: takeover " + count + " of at most " + bound
                            + " (the handler's retries are left as they were)",
                    null,
                    Fence.NONE);
        }
        return writer.owned(
                ex.instanceId(), InstanceState.FAILED, InstanceState.DEAD, ex.attempt, usedUp(count), null, Fence.NONE);
    }

    /** Whether the change {@link #next} made leads to the next attempt. */
    static boolean runsAgain(Transition next) {
        return next.to() == InstanceState.RETRYING;
    }

    private String usedUp(int count) {
        return "takeovers used up: the running attempt was taken over from its node " + count + " time(s), at most "
                + bound + " run again";
    }
}
