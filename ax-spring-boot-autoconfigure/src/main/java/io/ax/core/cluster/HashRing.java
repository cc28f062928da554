package io.ax.core.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Consistent hashing of keys (instance ids) onto nodes (node ids): the leader's way to spread due instances over
 * the live nodes so that a node joining or leaving moves only the keys it takes or gives up.
 *
 * <p>Each node places {@code virtualNodes × weight} points on a ring of 64-bit hashes; a key belongs to the node of
 * the first point at or after the key's hash, wrapping around past the largest point. More points per node spread
 * the keys more evenly: with 3 nodes of 32 points a node's share of the keys is 1/3 with a standard deviation of
 * about 0.05 (over node names); with 256 points, about 0.017.
 *
 * <p><b>Hash.</b> 64-bit FNV-1a over the UTF-8 bytes of the string, then the MurmurHash3 {@code fmix64} finalizer
 * so that every input bit reaches every output bit. A key hashes its own bytes; point {@code r} of node {@code n}
 * hashes the bytes of {@code n} followed by {@code r} as four big-endian bytes. Nothing depends on {@link
 * String#hashCode}, the JVM or the platform: the same nodes, weights and {@code virtualNodes} give the same ring,
 * and so the same owners, in every process. Points are ordered by hash as signed longs; equal hashes (rare) are
 * ordered by node id, then point index, so that ties too are broken the same way everywhere.
 *
 * <p>Immutable and thread-safe: build a new ring when the membership changes. Lookups allocate nothing (unless an
 * eligibility predicate rejects a node) and take {@code O(log points)}.
 */
public final class HashRing {

    /** The most points one node may place per unit of weight. */
    public static final int MAX_VIRTUAL_NODES = 4096;

    /** The most points a ring may hold, all nodes together (8 MiB of hashes): keeps a bad weight from eating the heap. */
    static final int MAX_POINTS = 1 << 20;

    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    /** Point hashes in ascending signed order. */
    private final long[] points;

    /** {@code owners[i]} is the node of {@code points[i]}. */
    private final String[] owners;

    /** The members, sorted by id. */
    private final Set<String> nodes;

    private HashRing(long[] points, String[] owners, Set<String> nodes) {
        this.points = points;
        this.owners = owners;
        this.nodes = nodes;
    }

    /**
     * A ring where every node has the same weight.
     *
     * @param nodes the node ids; an empty collection gives an empty ring
     * @param virtualNodes points per node, 1 to {@value #MAX_VIRTUAL_NODES}
     * @throws IllegalArgumentException when {@code virtualNodes} is out of range, or a node id is null, blank or
     *     listed twice
     * @throws NullPointerException when {@code nodes} is null
     */
    public static HashRing of(Collection<String> nodes, int virtualNodes) {
        Objects.requireNonNull(nodes, "nodes");
        Map<String, Integer> weights = new LinkedHashMap<>();
        for (String node : nodes) {
            requireValidId(node);
            if (weights.put(node, 1) != null) {
                throw new IllegalArgumentException("node '" + node + "' is listed twice");
            }
        }
        return build(weights, virtualNodes);
    }

    /**
     * A ring where a node of weight {@code w} places {@code w × virtualNodes} points, and so owns about {@code w}
     * times the keys of a node of weight 1. A node's points do not depend on the other nodes, so changing one weight
     * moves keys only onto or off that node. {@code weighted(all weights 1, v)} is the same ring as {@code of(nodes,
     * v)}.
     *
     * @param weights each node id's weight, at least 1; an empty map gives an empty ring
     * @param virtualNodes points per unit of weight, 1 to {@value #MAX_VIRTUAL_NODES}
     * @throws IllegalArgumentException when {@code virtualNodes} is out of range, a node id is null or blank, a
     *     weight is null or below 1, or the ring would hold more than {@value #MAX_POINTS} points
     * @throws NullPointerException when {@code weights} is null
     */
    public static HashRing weighted(Map<String, Integer> weights, int virtualNodes) {
        Objects.requireNonNull(weights, "weights");
        for (Map.Entry<String, Integer> e : weights.entrySet()) {
            requireValidId(e.getKey());
            Integer weight = e.getValue();
            if (weight == null || weight < 1) {
                throw new IllegalArgumentException(
                        "the weight of node '" + e.getKey() + "' must be at least 1, was " + weight);
            }
        }
        return build(weights, virtualNodes);
    }

    /**
     * The node that owns a key.
     *
     * @param key the key, typically an instance id
     * @return a member of {@link #nodes()}, never null
     * @throws IllegalStateException when the ring has no nodes
     * @throws NullPointerException when {@code key} is null
     */
    public String owner(String key) {
        Objects.requireNonNull(key, "key");
        requireNotEmpty(key);
        return owners[firstPointAtOrAfter(hash(key))];
    }

    /**
     * The first node, walking clockwise from the key's position, that {@code eligible} accepts: where a saturated
     * node, or one that does not serve the key's group, passes its key on. With a predicate that accepts every node,
     * this is {@link #owner(String)}. The predicate is called on the caller's thread, at most once per node.
     *
     * @param key the key, typically an instance id
     * @param eligible whether a node may take the key
     * @return the chosen node, or null when no node is eligible
     * @throws IllegalStateException when the ring has no nodes
     * @throws NullPointerException when {@code key} or {@code eligible} is null
     */
    public String owner(String key, Predicate<String> eligible) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(eligible, "eligible");
        requireNotEmpty(key);
        int start = firstPointAtOrAfter(hash(key));
        Set<String> rejected = null; // most keys go to the first node asked: allocate only on a refusal
        for (int step = 0; step < points.length; step++) {
            int i = start + step < points.length ? start + step : start + step - points.length;
            String node = owners[i];
            if (rejected != null && rejected.contains(node)) {
                continue;
            }
            if (eligible.test(node)) {
                return node;
            }
            if (rejected == null) {
                rejected = new HashSet<>();
            }
            rejected.add(node);
            if (rejected.size() == nodes.size()) {
                return null; // every node refused: no need to walk the remaining points
            }
        }
        return null;
    }

    /** Whether the ring has no nodes (then {@link #owner(String)} throws). */
    public boolean isEmpty() {
        return points.length == 0;
    }

    /** The member node ids, sorted; unmodifiable. */
    public Set<String> nodes() {
        return nodes;
    }

    @Override
    public String toString() {
        return "HashRing[nodes=" + nodes + ", points=" + points.length + "]";
    }

    /** The ring position of a key: FNV-1a 64 of its UTF-8 bytes, finalized with {@link #fmix64}. */
    static long hash(String key) {
        return fmix64(fnv1a(FNV_OFFSET_BASIS, key));
    }

    /** The ring position of point {@code replica} of a node: its UTF-8 bytes, then the index as 4 big-endian bytes. */
    static long pointHash(String node, int replica) {
        long h = fnv1a(FNV_OFFSET_BASIS, node);
        h = fnvByte(h, replica >>> 24);
        h = fnvByte(h, replica >>> 16);
        h = fnvByte(h, replica >>> 8);
        h = fnvByte(h, replica);
        return fmix64(h);
    }

    private static HashRing build(Map<String, Integer> weights, int virtualNodes) {
        if (virtualNodes < 1 || virtualNodes > MAX_VIRTUAL_NODES) {
            throw new IllegalArgumentException(
                    "virtualNodes must be between 1 and " + MAX_VIRTUAL_NODES + ", was " + virtualNodes);
        }
        long total = 0;
        for (int weight : weights.values()) {
            total += (long) weight * virtualNodes;
            if (total > MAX_POINTS) {
                break; // stop before a sum of huge weights could overflow
            }
        }
        if (total > MAX_POINTS) {
            throw new IllegalArgumentException("the ring would hold more than " + MAX_POINTS
                    + " points: lower virtualNodes (" + virtualNodes + ") or the weights");
        }
        List<Point> all = new ArrayList<>((int) total);
        weights.forEach((node, weight) -> {
            for (int r = 0; r < weight * virtualNodes; r++) {
                all.add(new Point(pointHash(node, r), node, r));
            }
        });
        all.sort(Point.ORDER);
        long[] points = new long[all.size()];
        String[] owners = new String[all.size()];
        for (int i = 0; i < points.length; i++) {
            points[i] = all.get(i).hash();
            owners[i] = all.get(i).node();
        }
        return new HashRing(points, owners, Collections.unmodifiableSet(new TreeSet<>(weights.keySet())));
    }

    /** The index of the first point at or after {@code h}, wrapping to 0 past the last; the ring is not empty. */
    private int firstPointAtOrAfter(long h) {
        // a lower bound, not Arrays.binarySearch: with equal hashes the first in tie-break order must win
        int lo = 0;
        int hi = points.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (points[mid] < h) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == points.length ? 0 : lo;
    }

    private void requireNotEmpty(String key) {
        if (points.length == 0) {
            throw new IllegalStateException("the hash ring has no nodes: no node can own key '" + key + "'");
        }
    }

    private static void requireValidId(String node) {
        if (node == null) {
            throw new IllegalArgumentException("a node id must not be null");
        }
        if (node.isBlank()) {
            throw new IllegalArgumentException("a node id must not be blank, was '" + node + "'");
        }
    }

    /**
     * FNV-1a over the UTF-8 encoding of {@code s}, encoded on the fly so that a lookup allocates no byte array. Like
     * {@code s.getBytes(UTF_8)}, an unpaired surrogate is encoded as {@code '?'}.
     */
    private static long fnv1a(long h, String s) {
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                h = fnvByte(h, c);
            } else if (c < 0x800) {
                h = fnvByte(h, 0xC0 | (c >>> 6));
                h = fnvByte(h, 0x80 | (c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                h = fnvByte(h, 0xE0 | (c >>> 12));
                h = fnvByte(h, 0x80 | ((c >>> 6) & 0x3F));
                h = fnvByte(h, 0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                h = fnvByte(h, 0xF0 | (cp >>> 18));
                h = fnvByte(h, 0x80 | ((cp >>> 12) & 0x3F));
                h = fnvByte(h, 0x80 | ((cp >>> 6) & 0x3F));
                h = fnvByte(h, 0x80 | (cp & 0x3F));
            } else {
                h = fnvByte(h, '?');
            }
        }
        return h;
    }

    private static long fnvByte(long h, int b) {
        return (h ^ (b & 0xFF)) * FNV_PRIME;
    }

    /** MurmurHash3's 64-bit finalizer: a bijection in which every input bit flips each output bit about half the time. */
    private static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** One point while the ring is built. */
    private record Point(long hash, String node, int replica) {
        static final Comparator<Point> ORDER =
                Comparator.comparingLong(Point::hash).thenComparing(Point::node).thenComparingInt(Point::replica);
    }
}
