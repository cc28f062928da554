package io.ax.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * Which node should own each partition: the target every node moves towards, computed alike on every node from the
 * same two inputs, the nodes that take partitions (see {@link SettledNodes}) and who owns each partition now (the
 * partition rows). No node publishes it: two nodes that read the same rows compute the same plan.
 *
 * <p>Consistent hashing with bounded loads, and sticky. Each node gets a quota, the partition count divided by the
 * node count, with the remainder going to the nodes that own the most now (then by node id), so that the loads differ
 * by at most one. A node keeps what it owns up to its quota, the partitions for which the ring ranks it highest
 * first; every other partition goes to the first node, walking the ring clockwise from the partition's hash, that has
 * room left. So a partition moves only when it must: a node that joins takes its quota from the others (about 1/N of
 * the partitions), a node that is gone gives up only its own, and nothing moves between the nodes that stay.
 *
 * <p>Immutable inputs in, a new array out; thread-safe.
 */
public final class PartitionPlan {

    private PartitionPlan() {}

    /**
     * The target owner of every partition.
     *
     * @param partitions the partition count
     * @param nodes the nodes that take partitions; none gives every partition a null target
     * @param owner who owns a partition now (null when nobody does, or a node not in {@code nodes})
     * @param virtualNodes the ring's points per node
     * @return the target of partition {@code p} at index {@code p}
     */
    public static String[] target(
            int partitions, Collection<String> nodes, IntFunction<String> owner, int virtualNodes) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be 1 or more, was " + partitions);
        }
        Objects.requireNonNull(owner, "owner");
        String[] target = new String[partitions];
        Set<String> members = new TreeSet<>(nodes);
        if (members.isEmpty()) {
            return target;
        }
        HashRing ring = HashRing.of(members, virtualNodes);
        Map<String, List<Integer>> owned = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            String o = owner.apply(p);
            if (o != null && members.contains(o)) {
                owned.computeIfAbsent(o, k -> new ArrayList<>()).add(p);
            }
        }
        Map<String, Integer> quota = quotas(partitions, members, owned);
        Map<String, Integer> load = new HashMap<>();
        // keep: each node its own partitions up to its quota, those the ring ranks it highest for first
        for (Map.Entry<String, List<Integer>> e : owned.entrySet()) {
            String node = e.getKey();
            List<Integer> mine = new ArrayList<>(e.getValue());
            mine.sort(Comparator.<Integer>comparingInt(p -> rank(ring, p, node, members.size()))
                    .thenComparingInt(p -> p));
            int keep = Math.min(mine.size(), quota.get(node));
            for (int i = 0; i < keep; i++) {
                target[mine.get(i)] = node;
            }
            load.put(node, keep);
        }
        // the rest: the first node clockwise from the partition's hash with room left
        for (int p = 0; p < partitions; p++) {
            if (target[p] == null) {
                String node = ring.owner(key(p), n -> load.getOrDefault(n, 0) < quota.get(n));
                target[p] = node;
                load.merge(node, 1, Integer::sum);
            }
        }
        return target;
    }

    /** How many partitions move from the current owners to reach {@code target} (free ones count too). */
    public static int moves(String[] target, IntFunction<String> owner) {
        int moves = 0;
        for (int p = 0; p < target.length; p++) {
            if (!Objects.equals(target[p], owner.apply(p))) {
                moves++;
            }
        }
        return moves;
    }

    /** The loads of a plan, by node. */
    public static Map<String, Integer> loads(String[] target) {
        Map<String, Integer> loads = new HashMap<>();
        Arrays.stream(target).filter(Objects::nonNull).forEach(n -> loads.merge(n, 1, Integer::sum));
        return loads;
    }

    /**
     * Every node's quota: the count divided by the nodes, and one more for the first {@code remainder} nodes by how
     * many they own now (most first), then by id.
     */
    private static Map<String, Integer> quotas(int partitions, Set<String> members, Map<String, List<Integer>> owned) {
        int base = partitions / members.size();
        int remainder = partitions % members.size();
        List<String> byOwned = new ArrayList<>(members);
        byOwned.sort(Comparator.<String>comparingInt(
                        n -> -owned.getOrDefault(n, List.of()).size())
                .thenComparing(Comparator.naturalOrder()));
        Map<String, Integer> quota = new HashMap<>();
        for (int i = 0; i < byOwned.size(); i++) {
            quota.put(byOwned.get(i), base + (i < remainder ? 1 : 0));
        }
        return quota;
    }

    /** Where {@code node} comes, walking the ring clockwise from the partition's hash: 0 for its first choice. */
    private static int rank(HashRing ring, int partition, String node, int nodes) {
        Set<String> before = new HashSet<>();
        for (int r = 0; r < nodes; r++) {
            String next = ring.owner(key(partition), n -> !before.contains(n));
            if (node.equals(next)) {
                return r;
            }
            before.add(next);
        }
        return nodes;
    }

    private static String key(int partition) {
        return "partition-" + partition;
    }
}
