package io.ax.autoconfigure;

/** Picks this node's id: the configured one, else {@code <host>-<pid>}. */
final class NodeIds {

    private NodeIds() {}

    static String resolve(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            host = "node";
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
