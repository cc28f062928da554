package io.ax.autoconfigure;

import io.ax.core.cluster.PartitionCountMismatchException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a node that starts with another partition count than the one its cluster's database records. */
final class PartitionCountMismatchFailureAnalyzer extends AbstractFailureAnalyzer<PartitionCountMismatchException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, PartitionCountMismatchException cause) {
        return new FailureAnalysis(
                "The cluster's database records " + cause.recorded() + " partitions, and this node is configured"
                        + " with ax.cluster.partitions=" + cause.configured() + ". The count is fixed for the life"
                        + " of a database: every series and delayed task belongs to a partition by a hash taken"
                        + " modulo the count, so two counts would give one piece of work two owners.",
                "Set ax.cluster.partitions=" + cause.recorded() + " on every node"
                        + (cause.recorded() == 256 ? " (or remove the setting: 256 is the default)." : "."),
                cause);
    }
}
