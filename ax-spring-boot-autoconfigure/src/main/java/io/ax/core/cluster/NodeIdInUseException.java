package io.ax.core.cluster;

import io.ax.core.AxException;

/** Another live process already runs under this node id. */
public final class NodeIdInUseException extends AxException {

    private final String nodeId;

    public NodeIdInUseException(String nodeId, String host) {
        super("Node id '" + nodeId + "' is in use by a live process on " + host
                + "; give each replica its own ax.node-id (or leave it unset for <host>-<pid>)");
        this.nodeId = nodeId;
    }

    public String nodeId() {
        return nodeId;
    }
}
