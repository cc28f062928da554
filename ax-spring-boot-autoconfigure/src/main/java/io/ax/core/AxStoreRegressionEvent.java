package io.ax.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Published (as a Spring application event, when running in Spring) when a node finds that its store went back in
 * time or became another server: writes it knows were committed are missing or older (a failover to a standby that
 * had not received them, an old primary back, a restore). The node then decides nothing for a while (it gives its
 * partitions up and steps down), raises the epochs that went back, and takes part again as a node that joins. What it
 * finds meanwhile that affects more instances (a second look at the store after it saw a new timeline, say) comes in
 * a further event, with those findings and instances.
 *
 * @param nodeId the node that found it
 * @param findings what it found, one sentence each (which write went back, from what to what)
 * @param affectedInstances the instances whose changes this node committed lately and the store no longer holds
 *     (missing, or in an earlier state): to be checked, since their work may have run, or may run again; at most
 *     {@link #MAX_AFFECTED}
 * @param checkedCommits how many of this node's recent changes were checked against the store to find them
 * @param detectedAt when it was found, on the node's clock
 */
public record AxStoreRegressionEvent(
        String nodeId, List<String> findings, List<String> affectedInstances, int checkedCommits, Instant detectedAt) {

    /** The most affected instances an event lists. */
    public static final int MAX_AFFECTED = 1_000;

    /**
     * Copies the lists.
     *
     * @param nodeId the node that found it
     * @param findings what it found
     * @param affectedInstances the instances known to be affected, at most {@link #MAX_AFFECTED}
     * @param checkedCommits how many recent changes were checked
     * @param detectedAt when it was found
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when there is no finding
     */
    public AxStoreRegressionEvent {
        Objects.requireNonNull(nodeId, "nodeId");
        findings = List.copyOf(findings);
        affectedInstances = List.copyOf(affectedInstances);
        Objects.requireNonNull(detectedAt, "detectedAt");
        if (findings.isEmpty()) {
            throw new IllegalArgumentException("a store regression has at least one finding");
        }
    }
}
