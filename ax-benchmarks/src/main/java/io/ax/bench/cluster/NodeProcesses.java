package io.ax.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Starts node processes, children of this JVM: JVMs on the same java binary and class path (main class {@link
 * ClusterNode}, or another given), or any command; each has its stderr in a log file of its own, and none outlives
 * the scenario: {@link #close()} kills every one still running, and so does a shutdown hook should this JVM exit
 * without reaching it. (A node whose parent dies without either also exits: its stdin closes.)
 */
public final class NodeProcesses implements AutoCloseable {

    private static final Duration KILL_WAIT = Duration.ofSeconds(30);

    private final Path logDir;
    private final List<String> jvmArgs;
    private final List<Node> started = new CopyOnWriteArrayList<>();
    private final Thread hook;

    public NodeProcesses(Path logDir, List<String> jvmArgs) throws IOException {
        this.logDir = Files.createDirectories(logDir);
        this.jvmArgs = List.copyOf(jvmArgs);
        this.hook = new Thread(this::killAll, "cluster-nodes-kill");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    public Path logDir() {
        return logDir;
    }

    /** Launches a {@link ClusterNode}; its log is {@code <logDir>/<label>.log}. Does not wait for it to be ready. */
    Node start(String label, String nodeId, List<String> args) throws IOException {
        return startJava(ClusterNode.class, label, nodeId, args);
    }

    /** Launches a JVM of this class path with main class {@code main}, given {@code --node-id} and {@code args}. */
    public Node startJava(Class<?> main, String label, String nodeId, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.add("--node-id=" + nodeId);
        command.addAll(args);
        return launch(label, nodeId, command);
    }

    /** Launches {@code command} as node {@code nodeId}; its log is {@code <logDir>/<label>.log}. */
    public Node launch(String label, String nodeId, List<String> command) throws IOException {
        Path log = logDir.resolve(label + ".log");
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        Node node = new Node(nodeId, process, log);
        started.add(node);
        return node;
    }

    /**
     * Asks every live node to stop (all at once, so that none takes over the others' work while they stop one by
     * one) and waits up to {@code timeout} for each to exit; kills those that do not.
     *
     * @return the nodes that had to be killed
     */
    public List<String> stopAll(List<Node> nodes, Duration timeout) throws InterruptedException {
        for (Node n : nodes) {
            if (n.alive()) {
                try {
                    n.send("STOP");
                } catch (IOException gone) {
                    // it exited already
                }
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> killed = new ArrayList<>();
        for (Node n : nodes) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (!n.process().waitFor(left, TimeUnit.NANOSECONDS)) {
                killed.add(n.id());
                n.kill(KILL_WAIT);
            }
        }
        return killed;
    }

    /** Kills every node still running and waits for each to be gone. */
    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private void killAll() {
        for (Node n : started) {
            if (n.alive()) {
                n.process().destroyForcibly();
            }
        }
        for (Node n : started) {
            try {
                n.process().waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
