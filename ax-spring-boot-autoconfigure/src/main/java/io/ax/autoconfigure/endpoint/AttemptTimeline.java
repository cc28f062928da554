package io.ax.autoconfigure.endpoint;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An instance's attempts read from its audit trail: each from its RUNNING row to the row that ended it; one whose node
 * was lost while it ran (a takeover row, or a next start with no end between) is TAKEN_OVER, not FAILED.
 */
final class AttemptTimeline {

    /** The rows that end an attempt. */
    private static final Set<InstanceState> ENDS =
            Set.of(InstanceState.SUCCESS, InstanceState.FAILED, InstanceState.TIMEOUT, InstanceState.CANCELLED);

    /** The outcome of an attempt that ended with its node: not a failure of its handler. */
    static final String TAKEN_OVER = "TAKEN_OVER";

    private AttemptTimeline() {}

    static List<AxDescriptors.Attempt> of(List<AuditEntry> trail) {
        List<AxDescriptors.Attempt> attempts = new ArrayList<>();
        AuditEntry open = null;
        for (AuditEntry e : trail) {
            if (e.to() == InstanceState.RUNNING) {
                if (open != null) {
                    attempts.add(unended(open, TAKEN_OVER));
                }
                open = e;
            } else if (open != null && ENDS.contains(e.to())) {
                boolean failed = e.to() == InstanceState.FAILED || e.to() == InstanceState.TIMEOUT;
                attempts.add(new AxDescriptors.Attempt(
                        open.attempt(),
                        open.node(),
                        open.at(),
                        e.at(),
                        Duration.between(open.at(), e.at()).toMillis(),
                        e.isTakeover() ? TAKEN_OVER : e.to().name(),
                        failed ? e.reason() : null));
                open = null;
            }
        }
        if (open != null) {
            attempts.add(unended(open, "RUNNING"));
        }
        return attempts;
    }

    private static AxDescriptors.Attempt unended(AuditEntry start, String outcome) {
        return new AxDescriptors.Attempt(start.attempt(), start.node(), start.at(), null, null, outcome, null);
    }
}
