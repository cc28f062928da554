package io.ax.core.cluster;

/**
 * The cluster protocol a node speaks: what its decisions and writes expect of every other node's. Each node records
 * its protocol in its registration, and a node does not start beside a live node of another protocol ({@link
 * MixedClusterProtocolException}): two protocols in one cluster would each take the other's work for unowned, or
 * leave it to a node that never does it. A rolling upgrade across a change of protocol is therefore not possible; a
 * release that changes it says so.
 */
public final class ClusterProtocol {

    /**
     * One leader plans every series and assigns every due instance to a node, which acknowledges it. Also what a
     * node registered before protocols were recorded speaks (its row has none).
     */
    public static final int LEADER_ASSIGNS = 1;

    /**
     * Each node decides the rows of the partitions it owns, fenced by their epochs, and runs them itself; no row is
     * assigned to another node. What this build speaks unless an engine is built for the leader's protocol.
     */
    public static final int PARTITIONS_OWN = 2;

    /** The protocol this build speaks. */
    public static final int CURRENT = PARTITIONS_OWN;

    private ClusterProtocol() {}

    /**
     * Checks a protocol number.
     *
     * @return the protocol
     * @throws IllegalArgumentException when it is below 1
     */
    public static int require(int protocol) {
        if (protocol < 1) {
            throw new IllegalArgumentException("a cluster protocol is 1 or more, was " + protocol);
        }
        return protocol;
    }
}
