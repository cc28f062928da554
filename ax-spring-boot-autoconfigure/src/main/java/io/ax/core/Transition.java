package io.ax.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A requested change of one instance's state, applied only if the instance is still in {@code from}.
 *
 * @param instanceId the instance
 * @param from the state the writer expects
 * @param to the new state; must be allowed by {@link InstanceState#canMoveTo}
 * @param attempt the attempt number after the change
 * @param node the node making the change
 * @param at when
 * @param reason why; never null
 * @param dueAt when not null, the change applies only if the instance is still due at this time (a rescheduled
 *     instance's old fire loses)
 */
public record Transition(
        String instanceId,
        InstanceState from,
        InstanceState to,
        int attempt,
        String node,
        Instant at,
        String reason,
        Instant dueAt) {

    /** A transition conditional on the state only. */
    public Transition(
            String instanceId,
            InstanceState from,
            InstanceState to,
            int attempt,
            String node,
            Instant at,
            String reason) {
        this(instanceId, from, to, attempt, node, at, reason, null);
    }

    public Transition {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(at, "at");
        reason = reason == null ? "" : reason;
        if (!from.canMoveTo(to)) {
            throw new IllegalTransitionException(instanceId, from, to);
        }
    }
}
