package io.ax.bench.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * The nodes of one round, each a JVM of its own: started together, asked together, stopped together. Every wait is
 * bounded.
 */
final class NodeGroup {

    private static final Duration READY = Duration.ofSeconds(120);
    private static final Duration ANSWER = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(40);

    /** What one node reported at the end of a measured window. */
    record Report(String node, long executions, long early, double cpuSeconds, String storeCalls, Histogram lateness) {}

    private final NodeProcesses processes;
    private final String label;
    private final List<String> args;
    private final List<Node> nodes = new ArrayList<>();
    /** Every node this group started, also those killed or replaced: their logs. */
    private final List<Node> everStarted = new ArrayList<>();

    private NodeGroup(NodeProcesses processes, String label, List<String> args) {
        this.processes = processes;
        this.label = label;
        this.args = List.copyOf(args);
    }

    /**
     * Starts {@code ids.size()} nodes with {@code args} and waits until each says it is ready: the first alone, then
     * the others at once (in an AX round the first writes the task rows and forms the cluster the others join).
     *
     * @param label names the round in the log files: {@code <label>-<node id>.log}
     */
    static NodeGroup start(NodeProcesses processes, String label, List<String> ids, List<String> args)
            throws IOException, InterruptedException {
        NodeGroup group = new NodeGroup(processes, label, args);
        group.launch(ids.get(0)).awaitReady(READY);
        List<Node> started = new ArrayList<>();
        for (String id : ids.subList(1, ids.size())) {
            started.add(group.launch(id));
        }
        for (Node n : started) {
            n.awaitReady(READY);
        }
        return group;
    }

    private Node launch(String id) throws IOException {
        Node node = processes.start(label + "-" + id, id, args);
        nodes.add(node);
        everStarted.add(node);
        return node;
    }

    /** Starts one more node (a replacement) and waits until it is ready. */
    Node add(String id) throws IOException, InterruptedException {
        Node node = launch(id);
        node.awaitReady(READY);
        return node;
    }

    /** Takes a node out of the group (it was killed). */
    void remove(Node node) {
        nodes.remove(node);
    }

    List<Node> nodes() {
        return List.copyOf(nodes);
    }

    Node node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElse(null);
    }

    /**
     * AX: waits until exactly one node leads and every node sees exactly this group's nodes alive (the leader
     * assigns to every one of them from then on).
     */
    void awaitJoined(Duration timeout) throws IOException, InterruptedException {
        Set<String> ids = new TreeSet<>();
        nodes.forEach(n -> ids.add(n.id()));
        String expected = String.join(",", ids);
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            int leaders = 0;
            boolean allSeeAll = true;
            // AX's nodes say how many partitions each owns: the cluster is formed once they are spread, within one of
            // each other (partitions still moving would move work, and its takeovers, into the measured window)
            List<Integer> owned = new java.util.ArrayList<>();
            int partitions = 0;
            StringBuilder views = new StringBuilder();
            for (Node n : nodes) {
                Map<String, String> v = n.ask("VIEW", ANSWER);
                if (Boolean.parseBoolean(v.get("leader"))) {
                    leaders++;
                }
                allSeeAll &= expected.equals(v.get("nodes"));
                if (v.containsKey("owned")) {
                    owned.add(Integer.parseInt(v.get("owned")));
                    partitions = Integer.parseInt(v.get("partitions"));
                }
                views.append(' ').append(n.id()).append(':').append(v);
            }
            last = views.toString();
            boolean spread = owned.isEmpty()
                    || owned.stream().mapToInt(Integer::intValue).sum() == partitions
                            && java.util.Collections.max(owned) - java.util.Collections.min(owned) <= 1;
            if (leaders == 1 && allSeeAll && spread) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(
                "the nodes did not form one cluster of " + expected + " within " + timeout + "; last views:" + last);
    }

    /** Executions so far, over all nodes. */
    long executions() throws IOException, InterruptedException {
        long sum = 0;
        for (Node n : nodes) {
            sum += Long.parseLong(n.ask("COUNT", ANSWER).get("executions"));
        }
        return sum;
    }

    /** How each node sees its cluster now ({@code VIEW}), by node id. */
    Map<String, Map<String, String>> views() throws IOException, InterruptedException {
        Map<String, Map<String, String>> out = new java.util.TreeMap<>();
        for (Node n : nodes) {
            out.put(n.id(), n.ask("VIEW", ANSWER));
        }
        return out;
    }

    /** Starts the measured window on every node. */
    void cut() throws IOException, InterruptedException {
        for (Node n : nodes) {
            n.ask("CUT", ANSWER);
        }
    }

    /** Every node's executions, CPU and lateness since the cut. */
    List<Report> report() throws IOException, InterruptedException {
        List<Report> out = new ArrayList<>();
        for (Node n : nodes) {
            Map<String, String> r = n.ask("REPORT", ANSWER);
            out.add(new Report(
                    n.id(),
                    Long.parseLong(r.get("executions")),
                    Long.parseLong(r.get("early")),
                    Double.parseDouble(r.get("cpu")),
                    r.get("store"),
                    ExecutionLog.decodeLateness(r.get("lateness"))));
        }
        return out;
    }

    /** Executions that ran more than once across the nodes, by the keys the handlers logged. */
    long duplicates() throws IOException, InterruptedException {
        List<Path> files = new ArrayList<>();
        for (Node n : nodes) {
            Path file = processes.logDir().resolve(label + "-" + n.id() + ".keys");
            n.ask("KEYS " + file, Duration.ofSeconds(120));
            files.add(file);
        }
        long twice = ExecutionLog.duplicates(files);
        for (Path f : files) {
            java.nio.file.Files.deleteIfExists(f);
        }
        return twice;
    }

    /** Stops every node at once; returns those that had to be killed. */
    List<String> stop() throws InterruptedException {
        return processes.stopAll(nodes, STOP);
    }

    /** The log files of every node this group started. */
    List<Path> logs() {
        return everStarted.stream().map(Node::log).toList();
    }
}
