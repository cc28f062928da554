package io.ax.autoconfigure;

import io.ax.core.cluster.MixedClusterProtocolException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a node started beside live nodes of an AX version that speaks another cluster protocol. */
final class MixedClusterProtocolFailureAnalyzer extends AbstractFailureAnalyzer<MixedClusterProtocolException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MixedClusterProtocolException cause) {
        return new FailureAnalysis(
                "AX node " + cause.nodeId() + " speaks cluster protocol " + cause.protocol() + ", and live nodes of"
                        + " the same database speak another: "
                        + MixedClusterProtocolException.describe(cause.others()) + ". Nodes of two protocols"
                        + " cannot run together: each would take the other's work for unowned, or leave it to a node"
                        + " that never does it. This node stopped before it took part in the cluster and left no registration.",
                "Stop every node of the other version, then start this one (an upgrade across a change of cluster"
                        + " protocol stops the whole cluster; a rolling upgrade is not possible). To run both"
                        + " versions side by side, give each its own database or ax.jdbc.table-prefix.",
                cause);
    }
}
