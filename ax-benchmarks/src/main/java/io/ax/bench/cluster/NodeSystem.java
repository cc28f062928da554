package io.ax.bench.cluster;

/** The scheduler one node JVM runs (the child side of the scenario): built and started, asked, stopped. */
interface NodeSystem {

    /** How this node sees its cluster, as {@code key=value} pairs for one line of the protocol. */
    String view();

    /**
     * What this node asked of its store since the last call ({@code method:calls/rows/refused,...}), or {@code -}
     * when it cannot tell.
     */
    String storeCalls();

    /** Stops completely: lets running work finish, closes its connections. */
    void stop() throws Exception;
}
