package io.ax.core;

import java.util.List;
import java.util.Objects;

/**
 * An instance and its audit trail.
 *
 * @param instance its current state, attempt, origin and key
 * @param auditTrail every change, oldest first
 */
public record InstanceDetails(TaskInstance instance, List<AuditEntry> auditTrail) {

    public InstanceDetails {
        Objects.requireNonNull(instance, "instance");
        auditTrail = List.copyOf(auditTrail);
    }
}
