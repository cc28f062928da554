package io.ax.core.cluster;

import io.ax.core.AxException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A node was started beside live nodes that speak another cluster protocol (another AX version across a protocol
 * change): it does not start, and leaves no registration behind.
 */
public final class MixedClusterProtocolException extends AxException {

    private final String nodeId;
    private final int protocol;
    private final List<NodeStatus> others;

    /**
     * @param nodeId the node that was refused
     * @param protocol the protocol it speaks
     * @param others the live nodes of another protocol, at least one
     */
    public MixedClusterProtocolException(String nodeId, int protocol, List<NodeStatus> others) {
        super("Node " + nodeId + " speaks AX cluster protocol " + protocol + ", and live node(s) of this cluster speak"
                + " another: " + describe(others) + ". Nodes of two protocols cannot run together; stop the nodes of"
                + " the other version before starting this one");
        this.nodeId = nodeId;
        this.protocol = protocol;
        this.others = List.copyOf(others);
    }

    /** The live nodes of another protocol, each with its host and protocol. */
    public static String describe(List<NodeStatus> nodes) {
        return nodes.stream()
                .map(n -> n.nodeId() + " on " + n.host() + " (protocol " + n.protocol() + ")")
                .collect(Collectors.joining(", "));
    }

    /** The node that was refused. */
    public String nodeId() {
        return nodeId;
    }

    /** The protocol it speaks. */
    public int protocol() {
        return protocol;
    }

    /** The live nodes of another protocol. */
    public List<NodeStatus> others() {
        return others;
    }
}
