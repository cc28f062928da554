package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HashRingTest {

    private static final List<String> THREE = List.of("node-1", "node-2", "node-3");

    @Test
    void theHashIsFnv1aOfTheUtf8BytesFinishedWithMurmursFinalizer() {
        // published FNV-1a 64 test vectors: the ring's positions are a documented function, the same in every JVM
        assertThat(HashRing.hash("")).isEqualTo(fmix64(0xcbf29ce484222325L));
        assertThat(HashRing.hash("a")).isEqualTo(fmix64(0xaf63dc4c8601ec8cL));
        assertThat(HashRing.hash("foobar")).isEqualTo(fmix64(0x85944171f73967e8L));
    }

    @Test
    void stringsAreHashedByTheirUtf8BytesSurrogatesIncluded() {
        Random random = new Random(11);
        char[] alphabet = {'a', 'Z', '7', '-', 'é', 'ß', '€', '中', '\uD83D', '\uDE00', '\uDBFF', '\uDFFF'};
        for (int n = 0; n < 2_000; n++) {
            char[] chars = new char[random.nextInt(12)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = alphabet[random.nextInt(alphabet.length)]; // pairs and lone surrogates alike
            }
            String s = new String(chars);
            assertThat(HashRing.hash(s))
                    .as("hash of %s", Arrays.toString(chars))
                    .isEqualTo(reference(s));
        }
    }

    @Test
    void ownersArePinnedSoThatEveryNodeOfEveryVersionAgrees() {
        HashRing ring = HashRing.of(THREE, 32);

        assertThat(HashRing.hash("instance-1")).isEqualTo(0x108e41dbe137bf1eL);
        assertThat(HashRing.pointHash("node-1", 0)).isEqualTo(0x2fbd200978fd17d2L);
        assertThat(List.of("instance-1", "instance-2", "instance-3", "instance-4", "instance-5", "instance-6").stream()
                        .map(ring::owner))
                .containsExactly("node-3", "node-2", "node-1", "node-1", "node-1", "node-3");
    }

    @Test
    void ringsOfTheSameNodesAgreeWhateverTheOrderTheNodesCameIn() {
        HashRing one = HashRing.of(THREE, 32);
        HashRing other = HashRing.of(List.of("node-3", "node-1", "node-2"), 32);
        HashRing weightedAlike = HashRing.weighted(Map.of("node-2", 1, "node-3", 1, "node-1", 1), 32);

        for (String key : keys(10_000, 1)) {
            assertThat(other.owner(key)).isEqualTo(one.owner(key));
            assertThat(weightedAlike.owner(key)).isEqualTo(one.owner(key));
        }
    }

    @Test
    void everyKeyIsOwnedByAMember() {
        HashRing ring = HashRing.of(THREE, 32);

        assertThat(keys(10_000, 2).stream().map(ring::owner).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(THREE);
        assertThat(ring.owner("")).isIn(THREE);
    }

    @Test
    void aSingleNodeOwnsEverything() {
        HashRing ring = HashRing.of(List.of("only"), 1);

        assertThat(keys(1_000, 3)).allSatisfy(key -> assertThat(ring.owner(key)).isEqualTo("only"));
    }

    @Test
    void threeNodesOf32PointsShareTheKeysRoughlyEvenly() {
        Map<String, Double> shares = shares(HashRing.of(THREE, 32), keys(100_000, 4));

        // a share's standard deviation is about 0.05 here: 0.20..0.48 is about three of them
        assertThat(shares.values()).allSatisfy(share -> assertThat(share).isBetween(0.20, 0.48));
    }

    @Test
    void threeNodesOf256PointsShareTheKeysCloselyEvenly() {
        Map<String, Double> shares = shares(HashRing.of(THREE, 256), keys(100_000, 5));

        // standard deviation about 0.017
        assertThat(shares.values()).allSatisfy(share -> assertThat(share).isBetween(0.28, 0.39));
    }

    @Test
    void theSpreadHoldsAcrossManyNodeNamesNotOnlyLuckyOnes() {
        List<String> keys = keys(20_000, 6);
        double sumOfSquares = 0;
        int count = 0;
        for (int ring = 0; ring < 40; ring++) {
            List<String> nodes = List.of("host-" + ring + "-a", "host-" + ring + "-b", "host-" + ring + "-c");
            for (double share : shares(HashRing.of(nodes, 32), keys).values()) {
                sumOfSquares += (share - 1.0 / 3) * (share - 1.0 / 3);
                count++;
            }
        }
        // theory for 32 points per node: about 0.048; a weak hash (clustered points) shows far more
        assertThat(Math.sqrt(sumOfSquares / count)).isLessThan(0.065);
    }

    @Test
    void aNodeLeavingMovesOnlyItsOwnKeys() {
        List<String> five = List.of("a", "b", "c", "d", "e");
        HashRing before = HashRing.of(five, 32);
        HashRing after = HashRing.of(List.of("a", "b", "d", "e"), 32);

        for (String key : keys(20_000, 7)) {
            String was = before.owner(key);
            if (was.equals("c")) {
                assertThat(after.owner(key)).isNotEqualTo("c");
            } else {
                assertThat(after.owner(key)).as("owner of %s", key).isEqualTo(was);
            }
        }
    }

    @Test
    void aNodeJoiningTakesKeysOnlyOntoItselfAndAboutItsShare() {
        HashRing before = HashRing.of(List.of("a", "b", "c", "d", "e"), 64);
        HashRing after = HashRing.of(List.of("a", "b", "c", "d", "e", "f"), 64);
        List<String> keys = keys(20_000, 8);

        int moved = 0;
        for (String key : keys) {
            String now = after.owner(key);
            if (!now.equals(before.owner(key))) {
                assertThat(now).as("new owner of %s", key).isEqualTo("f");
                moved++;
            }
        }
        assertThat((double) moved / keys.size()).isCloseTo(1.0 / 6, within(0.06));
    }

    @Test
    void aHeavierNodeOwnsProportionallyMoreKeys() {
        Map<String, Double> shares = shares(HashRing.weighted(Map.of("a", 1, "b", 2, "c", 1), 128), keys(100_000, 9));

        assertThat(shares.get("b")).isCloseTo(0.50, within(0.07));
        assertThat(shares.get("a")).isCloseTo(0.25, within(0.05));
        assertThat(shares.get("c")).isCloseTo(0.25, within(0.05));
    }

    @Test
    void raisingOneWeightMovesKeysOnlyOntoThatNode() {
        Map<String, Integer> weights = new LinkedHashMap<>(Map.of("a", 1, "b", 1, "c", 1));
        HashRing before = HashRing.weighted(weights, 32);
        weights.put("b", 3);
        HashRing after = HashRing.weighted(weights, 32);

        for (String key : keys(10_000, 10)) {
            String now = after.owner(key);
            if (!now.equals(before.owner(key))) {
                assertThat(now).isEqualTo("b");
            }
        }
    }

    @Test
    void anIneligibleOwnerPassesItsKeyToTheNextNodeClockwise() {
        HashRing ring = HashRing.of(List.of("a", "b", "c", "d"), 32);
        HashRing withoutB = HashRing.of(List.of("a", "c", "d"), 32);

        for (String key : keys(10_000, 12)) {
            assertThat(ring.owner(key, node -> true)).isEqualTo(ring.owner(key));
            // skipping b's points is exactly the ring without b: its keys spread over the others, theirs stay
            assertThat(ring.owner(key, node -> !node.equals("b"))).isEqualTo(withoutB.owner(key));
        }
    }

    @Test
    void noEligibleNodeGivesNullAfterAskingEachNodeOnce() {
        HashRing ring = HashRing.of(THREE, 4096);
        Map<String, AtomicInteger> asked = new HashMap<>();

        String owner = ring.owner("instance-1", node -> {
            asked.computeIfAbsent(node, n -> new AtomicInteger()).incrementAndGet();
            return false;
        });

        assertThat(owner).isNull();
        assertThat(asked.keySet()).containsExactlyInAnyOrderElementsOf(THREE);
        assertThat(asked.values()).allSatisfy(times -> assertThat(times).hasValue(1));
    }

    @Test
    void anEmptyRingSaysSoWhenAskedForAnOwner() {
        HashRing ring = HashRing.of(List.of(), 32);

        assertThat(ring.isEmpty()).isTrue();
        assertThat(ring.nodes()).isEmpty();
        assertThatThrownBy(() -> ring.owner("instance-1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no nodes")
                .hasMessageContaining("instance-1");
        assertThatThrownBy(() -> ring.owner("instance-1", node -> true)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theMembersAreListedSortedAndCannotBeChanged() {
        HashRing ring = HashRing.of(List.of("c", "a", "b"), 8);

        assertThat(ring.isEmpty()).isFalse();
        assertThat(ring.nodes()).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> ring.nodes().add("d")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(ring).hasToString("HashRing[nodes=[a, b, c], points=24]");
    }

    @Test
    void badInputsAreRejectedSayingWhatIsWrong() {
        assertThatThrownBy(() -> HashRing.of(THREE, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("virtualNodes must be between 1 and 4096, was 0");
        assertThatThrownBy(() -> HashRing.of(THREE, 4097))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 4097");
        assertThatThrownBy(() -> HashRing.of(Arrays.asList("a", null), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a node id must not be null");
        assertThatThrownBy(() -> HashRing.of(List.of("a", " "), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a node id must not be blank, was ' '");
        assertThatThrownBy(() -> HashRing.of(List.of("a", "b", "a"), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node 'a' is listed twice");
        assertThatThrownBy(() -> HashRing.weighted(Map.of("a", 1, "b", 0), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the weight of node 'b' must be at least 1, was 0");
        Map<String, Integer> nullWeight = new HashMap<>();
        nullWeight.put("a", null);
        assertThatThrownBy(() -> HashRing.weighted(nullWeight, 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the weight of node 'a' must be at least 1, was null");
        assertThatThrownBy(() -> HashRing.weighted(Map.of("a", Integer.MAX_VALUE, "b", Integer.MAX_VALUE), 4096))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 1048576 points");
        assertThatThrownBy(() -> HashRing.of(THREE, 32).owner(null)).isInstanceOf(NullPointerException.class);
    }

    private static Map<String, Double> shares(HashRing ring, List<String> keys) {
        Map<String, Integer> counts = new HashMap<>();
        for (String key : keys) {
            counts.merge(ring.owner(key), 1, Integer::sum);
        }
        assertThat(counts.keySet()).isEqualTo(Set.copyOf(ring.nodes()));
        Map<String, Double> shares = new HashMap<>();
        counts.forEach((node, count) -> shares.put(node, (double) count / keys.size()));
        return shares;
    }

    /** Instance-id-like keys (random UUIDs), the same for a seed on every run. */
    private static List<String> keys(int count, long seed) {
        Random random = new Random(seed);
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            keys.add(new UUID(random.nextLong(), random.nextLong()).toString());
        }
        return keys;
    }

    /** The documented hash, computed the plain way: FNV-1a 64 over {@code getBytes(UTF_8)}, then fmix64. */
    private static long reference(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001b3L;
        }
        return fmix64(h);
    }

    private static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
