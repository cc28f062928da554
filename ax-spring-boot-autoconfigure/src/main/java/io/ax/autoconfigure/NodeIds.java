package io.ax.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Picks this node's id: the configured one, else {@code <host>-<pid>}, the host as the JDK resolves it. */
final class NodeIds {

    private NodeIds() {}

    static String resolve(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        return host() + "-" + ProcessHandle.current().pid();
    }

    /**
     * This machine's name from {@link InetAddress}, not the {@code HOSTNAME} variable, which a shell sets but a
     * service manager or a container runtime may not export.
     */
    static String host() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            return name == null || name.isBlank() ? "node" : name;
        } catch (UnknownHostException e) {
            return "node";
        }
    }
}
