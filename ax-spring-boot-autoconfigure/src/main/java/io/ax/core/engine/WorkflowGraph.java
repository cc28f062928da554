package io.ax.core.engine;

import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InvalidTaskException;
import io.ax.core.trigger.DependencyTrigger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The workflows among a set of tasks: the edges their {@link DependencyTrigger}s draw from each upstream task to its
 * downstream task. Checked when built, so that a bad graph fails start-up with one message naming the task and the
 * fault:
 *
 * <ul>
 *   <li>an upstream task that does not exist, or a task that depends on itself;
 *   <li>a cycle, spelt out along its edges ({@code a -> b -> c -> a});
 *   <li>a workflow with more than one root (a task with downstream tasks and no upstream one): a run starts at one
 *       root, so that every step of it knows which run it belongs to;
 *   <li>a MEMORY task in a workflow: a run's state must survive a restart, so its steps live in the store.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class WorkflowGraph {

    /** An edge: {@code to} waits for {@code from}. */
    public record Edge(String from, String to) {}

    /**
     * One workflow: its root (where a run starts), every task of it in a topological order (upstream first), and its
     * edges.
     */
    public record Workflow(String root, List<String> tasks, List<Edge> edges) {}

    private static final WorkflowGraph EMPTY = new WorkflowGraph(Map.of(), Map.of(), List.of());

    private final Map<String, List<String>> upstream;
    private final Map<String, List<String>> downstream;
    private final List<Workflow> workflows;
    /** Task name -> the root of its workflow. */
    private final Map<String, String> rootOf = new HashMap<>();

    private WorkflowGraph(
            Map<String, List<String>> upstream, Map<String, List<String>> downstream, List<Workflow> workflows) {
        this.upstream = upstream;
        this.downstream = downstream;
        this.workflows = workflows;
        for (Workflow w : workflows) {
            w.tasks().forEach(t -> rootOf.put(t, w.root()));
        }
    }

    /** A graph without workflows. */
    public static WorkflowGraph empty() {
        return EMPTY;
    }

    /**
     * The workflows among {@code tasks}.
     *
     * @throws InvalidTaskException (attribute {@code dependsOn}) when the graph breaks one of the rules above
     */
    public static WorkflowGraph of(Collection<AxTask> tasks) {
        Map<String, AxTask> byName = new TreeMap<>();
        tasks.forEach(t -> byName.put(t.name(), t));
        Map<String, List<String>> up = new TreeMap<>();
        Map<String, List<String>> down = new TreeMap<>();
        for (AxTask task : byName.values()) {
            if (!(task.trigger() instanceof DependencyTrigger dependency)) {
                continue;
            }
            for (String u : dependency.upstream()) {
                if (u.equals(task.name())) {
                    throw invalid(task.name(), "task '" + task.name() + "' depends on itself");
                }
                if (!byName.containsKey(u)) {
                    throw invalid(
                            task.name(),
                            "upstream task '" + u + "' does not exist (known tasks: "
                                    + String.join(", ", byName.keySet()) + ")");
                }
                down.computeIfAbsent(u, k -> new ArrayList<>()).add(task.name());
            }
            up.put(task.name(), dependency.upstream());
        }
        if (up.isEmpty()) {
            return EMPTY;
        }
        checkAcyclic(up.keySet(), down);
        List<Workflow> workflows = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        Set<String> members = new TreeSet<>(up.keySet());
        members.addAll(down.keySet());
        for (String start : members) {
            if (!seen.contains(start)) {
                workflows.add(component(start, up, down, byName, seen));
            }
        }
        Map<String, List<String>> frozenDown = new HashMap<>();
        down.forEach((k, v) -> frozenDown.put(k, List.copyOf(v)));
        return new WorkflowGraph(Map.copyOf(up), Map.copyOf(frozenDown), List.copyOf(workflows));
    }

    /** The tasks {@code task} waits for; empty when it waits for none. */
    public List<String> upstream(String task) {
        return upstream.getOrDefault(task, List.of());
    }

    /** The tasks that wait for {@code task}; empty when none does. */
    public List<String> downstream(String task) {
        return downstream.getOrDefault(task, List.of());
    }

    /** Whether a run starts at {@code task}: it has downstream tasks and waits for none. */
    public boolean isRoot(String task) {
        return task.equals(rootOf.get(task));
    }

    /** Whether {@code task} is part of a workflow. */
    public boolean contains(String task) {
        return rootOf.containsKey(task);
    }

    /** Every workflow, by root name. */
    public List<Workflow> workflows() {
        return workflows;
    }

    /** The workflow {@code task} belongs to, or null. */
    public Workflow workflowOf(String task) {
        String root = rootOf.get(task);
        if (root == null) {
            return null;
        }
        return workflows.stream().filter(w -> w.root().equals(root)).findFirst().orElse(null);
    }

    /** Every task that waits, directly or not, for {@code task}, upstream first. */
    public List<String> reachableFrom(String task) {
        Set<String> reached = new LinkedHashSet<>();
        Deque<String> next = new ArrayDeque<>(downstream(task));
        while (!next.isEmpty()) {
            String t = next.poll();
            if (reached.add(t)) {
                next.addAll(downstream(t));
            }
        }
        return List.copyOf(reached);
    }

    /** Depth-first, in name order, so that the cycle named is the same at every start. */
    private static void checkAcyclic(Set<String> withUpstream, Map<String, List<String>> down) {
        Set<String> all = new TreeSet<>(withUpstream);
        all.addAll(down.keySet());
        Set<String> done = new TreeSet<>();
        for (String start : all) {
            if (!done.contains(start)) {
                visit(start, down, new ArrayList<>(), new TreeSet<>(), done);
            }
        }
    }

    private static void visit(
            String task, Map<String, List<String>> down, List<String> path, Set<String> onPath, Set<String> done) {
        path.add(task);
        onPath.add(task);
        for (String next : down.getOrDefault(task, List.of())) {
            if (onPath.contains(next)) {
                List<String> cycle = new ArrayList<>(path.subList(path.indexOf(next), path.size()));
                cycle.add(next);
                throw invalid(next, "the workflow has a cycle: " + String.join(" -> ", cycle));
            }
            if (!done.contains(next)) {
                visit(next, down, path, onPath, done);
            }
        }
        onPath.remove(task);
        path.remove(path.size() - 1);
        done.add(task);
    }

    /** The connected tasks around {@code start}, with their one root and a topological order. */
    private static Workflow component(
            String start,
            Map<String, List<String>> up,
            Map<String, List<String>> down,
            Map<String, AxTask> byName,
            Set<String> seen) {
        Set<String> tasks = new TreeSet<>();
        Deque<String> next = new ArrayDeque<>(List.of(start));
        while (!next.isEmpty()) {
            String t = next.poll();
            if (tasks.add(t)) {
                next.addAll(up.getOrDefault(t, List.of()));
                next.addAll(down.getOrDefault(t, List.of()));
            }
        }
        seen.addAll(tasks);
        List<String> roots = tasks.stream().filter(t -> !up.containsKey(t)).toList();
        if (roots.size() != 1) {
            // a DAG always has a root; more than one means two runs would have to meet
            throw invalid(
                    roots.get(1),
                    "the workflow of " + String.join(", ", tasks) + " has " + roots.size() + " root tasks ("
                            + String.join(", ", roots) + "); a run starts at one root, so make one depend on the other"
                            + " or give them a common upstream task");
        }
        for (String t : tasks) {
            if (byName.get(t).durability() == Durability.MEMORY) {
                throw invalid(
                        t,
                        "task '" + t + "' is in a workflow and has durability MEMORY; workflow steps are PERSISTENT, so"
                                + " that a run survives a restart");
            }
        }
        // Kahn's order: upstream first, ties by name
        Map<String, Integer> waiting = new HashMap<>();
        tasks.forEach(t -> waiting.put(t, up.getOrDefault(t, List.of()).size()));
        TreeSet<String> ready = new TreeSet<>(roots);
        List<String> order = new ArrayList<>(tasks.size());
        List<Edge> edges = new ArrayList<>();
        while (!ready.isEmpty()) {
            String t = ready.pollFirst();
            order.add(t);
            for (String d : down.getOrDefault(t, List.of())) {
                edges.add(new Edge(t, d));
                if (waiting.merge(d, -1, Integer::sum) == 0) {
                    ready.add(d);
                }
            }
        }
        return new Workflow(roots.get(0), List.copyOf(order), List.copyOf(edges));
    }

    private static InvalidTaskException invalid(String task, String reason) {
        return new InvalidTaskException(task, "dependsOn", reason);
    }
}
