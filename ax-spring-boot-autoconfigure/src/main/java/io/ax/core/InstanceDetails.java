package io.ax.core;

import java.util.List;
import java.util.Objects;

/**
 * An instance and its audit trail.
 *
 * @param instance its current state, attempt, origin and key
 * @param auditTrail every change, oldest first; unmodifiable
 */
public record InstanceDetails(TaskInstance instance, List<AuditEntry> auditTrail) {

    /**
     * Checks the instance and copies the audit trail.
     *
     * @param instance the instance; not null
     * @param auditTrail every change, oldest first; not null, and no null element
     * @throws NullPointerException when the instance, the trail or one of its entries is null
     */
    public InstanceDetails {
        Objects.requireNonNull(instance, "instance");
        auditTrail = List.copyOf(auditTrail);
    }
}
