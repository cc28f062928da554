package io.ax.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.NodeStatus;
import io.ax.core.cluster.PartitionCountMismatchException;
import io.ax.core.cluster.PartitionLease;
import io.ax.core.cluster.PartitionLeases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link PartitionLeases} must have. A store's test extends this class and supplies fresh,
 * empty partitions ({@link #newLeases()}) and the node registry of the same store ({@link #registry()}), whose
 * heartbeats are what keep an owner's partitions. Time is the store's: a store on a real clock lets it pass by itself,
 * a store on a fake clock moves it in {@link #advanceStoreClock}; either way the suite waits for what the store
 * reports, with a bound, and never sleeps.
 */
public abstract class PartitionLeasesContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** Longer than any test runs: an owner is never taken for dead by itself here. */
    protected static final Duration LONG = Duration.ofMinutes(5);
    /** Short enough to wait out, long enough for a few statements on a loaded database. */
    protected static final Duration SHORT = Duration.ofMillis(300);
    /** How long a wait for the store may take beyond the time it waits out. */
    private static final Duration BOUND = Duration.ofSeconds(10);

    protected PartitionLeases leases;
    protected NodeRegistry registry;

    /** Partitions never recorded, on a store whose node registry is empty. */
    protected abstract PartitionLeases newLeases();

    /** The node registry of the store {@link #newLeases()} last returned. */
    protected abstract NodeRegistry registry();

    /** Moves the store's clock forward. Stores on a real clock do nothing: their time passes by itself. */
    protected void advanceStoreClock(Duration duration) {}

    /**
     * The same store as a node whose own idea of time is far off would use it. The default is the store itself, for
     * stores that have no node-side time to skew.
     */
    protected PartitionLeases sameStoreSeenFromASkewedNode() {
        return leases;
    }

    @BeforeEach
    void freshPartitions() {
        leases = newLeases();
        registry = registry();
    }

    @Test
    void theFirstNodeRecordsTheCountAndEveryOtherMustAgree() {
        assertThat(leases.partitions(8)).isEqualTo(8);
        assertThat(leases.read(LONG)).hasSize(8).allSatisfy(p -> {
            assertThat(p.owner()).isNull();
            assertThat(p.epoch()).isZero();
            assertThat(p.free()).isTrue();
        });
        assertThat(leases.read(LONG)).extracting(PartitionLease::partition).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(leases.partitions(8)).as("the same count again").isEqualTo(8);

        assertThatThrownBy(() -> leases.partitions(16))
                .isInstanceOfSatisfying(PartitionCountMismatchException.class, e -> {
                    assertThat(e.recorded()).isEqualTo(8);
                    assertThat(e.configured()).isEqualTo(16);
                })
                .hasMessageContaining("ax.cluster.partitions=16")
                .hasMessageContaining("ax.cluster.partitions=8");
        assertThat(leases.read(LONG)).as("a refused count changes nothing").hasSize(8);
        assertThatThrownBy(() -> leases.partitions(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> leases.partitions(PartitionLeases.MAX_PARTITIONS + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ax.cluster.partitions");
    }

    @Test
    void nodesStartingTogetherWithDifferentCountsRecordOneOfThem() throws Exception {
        List<Integer> configured = List.of(8, 16, 8, 16);
        List<Optional<Integer>> answers = race(configured.size(), i -> {
            try {
                return Optional.of(leases.partitions(configured.get(i)));
            } catch (PartitionCountMismatchException e) {
                return Optional.empty();
            }
        });
        int recorded = leases.read(LONG).size();
        assertThat(recorded).isIn(8, 16);
        for (int i = 0; i < configured.size(); i++) {
            // a node configured with the recorded count starts; one configured otherwise is refused
            assertThat(answers.get(i))
                    .as("node " + i + " configured with " + configured.get(i))
                    .isEqualTo(configured.get(i) == recorded ? Optional.of(recorded) : Optional.empty());
        }
    }

    @Test
    void nodesRacingForOnePartitionLeaveItOneOwner() throws Exception {
        leases.partitions(4);
        int racers = 8;
        for (int i = 0; i < racers; i++) {
            join("n" + i, "inc-" + i);
        }
        List<Optional<PartitionLease>> won = race(racers, i -> leases.take(3, "n" + i, "inc-" + i, LONG));
        List<PartitionLease> winners = won.stream().flatMap(Optional::stream).toList();
        assertThat(winners).hasSize(1);
        PartitionLease winner = winners.get(0);
        assertThat(winner.epoch()).isEqualTo(1);
        assertThat(winner.ownerAlive()).isTrue();
        assertThat(partition(3, LONG))
                .extracting(PartitionLease::owner, PartitionLease::incarnation, PartitionLease::epoch)
                .containsExactly(winner.owner(), winner.incarnation(), winner.epoch());
        assertThat(leases.read(LONG).stream().filter(p -> p.partition() != 3))
                .as("the other partitions")
                .allSatisfy(p -> assertThat(p.owner()).isNull());
    }

    @Test
    void anOwnersHeartbeatAloneKeepsItsPartitionsAndWritesNoPartitionRow() {
        leases.partitions(2);
        join("n1", "inc-1");
        join("n2", "inc-2");
        PartitionLease taken = leases.take(0, "n1", "inc-1", SHORT).orElseThrow();
        for (int round = 1; round <= 4; round++) {
            Duration age = SHORT.dividedBy(2).multipliedBy(round);
            advanceStoreClock(SHORT.dividedBy(2));
            await().atMost(age.plus(BOUND))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> partition(0, SHORT).sinceMove().compareTo(age) >= 0);
            assertThat(registry.heartbeat("n1", "inc-1", 1)).isTrue();
            assertThat(registry.heartbeat("n2", "inc-2", 1)).isTrue();
            assertThat(leases.take(0, "n2", "inc-2", SHORT))
                    .as("round " + round)
                    .isEmpty();
        }
        PartitionLease kept = partition(0, SHORT);
        assertThat(kept.ownedBy("n1", "inc-1")).isTrue();
        assertThat(kept.epoch()).isEqualTo(taken.epoch());
        assertThat(kept.ownerAlive()).isTrue();
        assertThat(kept.sinceMove())
                .as("its row not written since the move, two leases ago")
                .isGreaterThanOrEqualTo(SHORT.multipliedBy(2));
        assertThat(leases.holds(0, "n1", taken.epoch())).isTrue();
    }

    @Test
    void aDeadOwnersPartitionIsTakenOnceItsHeartbeatIsOlderThanTheLease() {
        leases.partitions(2);
        join("n1", "inc-1");
        join("n2", "inc-2");
        PartitionLease first = leases.take(1, "n1", "inc-1", LONG).orElseThrow();
        assertThat(leases.take(1, "n2", "inc-2", LONG)).as("while n1 is alive").isEmpty();
        // n1 heartbeats no more; n2 does, and takes the partition once n1's heartbeat is older than the lease
        advanceStoreClock(SHORT);
        PartitionLease second = await().atMost(SHORT.plus(BOUND))
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () -> {
                            registry.heartbeat("n2", "inc-2", 1);
                            return leases.take(1, "n2", "inc-2", SHORT);
                        },
                        Optional::isPresent)
                .orElseThrow();
        assertThat(status("n1").heartbeatAge()).isGreaterThanOrEqualTo(SHORT);
        assertThat(second.ownedBy("n2", "inc-2")).isTrue();
        assertThat(second.epoch()).isEqualTo(first.epoch() + 1);
        assertThat(leases.holds(1, "n1", first.epoch()))
                .as("the dead owner's epoch")
                .isFalse();
        assertThat(leases.holds(1, "n2", second.epoch())).isTrue();
        assertThat(leases.read(LONG).get(0).owner()).as("the other partition").isNull();
    }

    @Test
    void aTakerThatIsNotAliveItselfTakesNothing() {
        leases.partitions(2);
        assertThat(leases.take(0, "ghost", "inc-0", LONG))
                .as("a process not in the registry")
                .isEmpty();
        join("n1", "inc-1");
        assertThat(leases.take(0, "n1", "inc-other", LONG))
                .as("another incarnation of a live node")
                .isEmpty();
        waitForHeartbeatAge("n1", SHORT);
        assertThat(leases.take(0, "n1", "inc-1", SHORT))
                .as("a process whose heartbeat is stale")
                .isEmpty();
        assertThat(partition(0, LONG).owner()).isNull();
        assertThat(leases.take(0, "n1", "inc-1", LONG))
                .as("the same process, within a longer lease")
                .isPresent();
    }

    @Test
    void anOwnerThatTakesAgainKeepsItsEpoch() {
        leases.partitions(1);
        join("n1", "inc-1");
        PartitionLease taken = leases.take(0, "n1", "inc-1", LONG).orElseThrow();
        assertThat(leases.take(0, "n1", "inc-1", LONG)).isEmpty();
        assertThat(partition(0, LONG).epoch()).isEqualTo(taken.epoch());
    }

    @Test
    void aReleasedPartitionIsTakenAtOnceAtAHigherEpoch() {
        leases.partitions(1);
        join("n1", "inc-1");
        join("n2", "inc-2");
        PartitionLease first = leases.take(0, "n1", "inc-1", LONG).orElseThrow();
        assertThat(leases.release(0, "n2", first.epoch()))
                .as("by a node that does not own it")
                .isFalse();
        assertThat(leases.release(0, "n1", first.epoch() + 1))
                .as("at an epoch it does not hold")
                .isFalse();
        assertThat(leases.release(0, "n1", first.epoch())).isTrue();
        assertThat(leases.release(0, "n1", first.epoch())).as("twice").isFalse();
        assertThat(partition(0, LONG)).satisfies(p -> {
            assertThat(p.owner()).isNull();
            assertThat(p.epoch()).as("kept, for the next take to move on from").isEqualTo(first.epoch());
        });
        // with n1 alive and heartbeating: no lease runs out, the release alone lets n2 take it
        PartitionLease second = leases.take(0, "n2", "inc-2", LONG).orElseThrow();
        assertThat(second.epoch()).isEqualTo(first.epoch() + 1);
        assertThat(leases.holds(0, "n1", first.epoch())).isFalse();
    }

    @Test
    void manyPartitionsAreTakenTogetherLeavingALiveOwnersOnes() {
        leases.partitions(8);
        join("n1", "inc-1");
        join("n2", "inc-2");
        long before = leases.take(3, "n2", "inc-2", LONG).orElseThrow().epoch();

        List<PartitionLease> taken = leases.takeAll(List.of(0, 1, 2, 3, 4, 5, 6, 7), "n1", "inc-1", LONG);

        assertThat(taken).extracting(PartitionLease::partition).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 6, 7);
        assertThat(taken).allSatisfy(p -> {
            assertThat(p.ownedBy("n1", "inc-1")).isTrue();
            assertThat(p.epoch()).as("a move").isEqualTo(1);
            assertThat(leases.holds(p.partition(), "n1", p.epoch())).isTrue();
        });
        assertThat(leases.holds(3, "n2", before))
                .as("a live owner's partition stays its own")
                .isTrue();
        assertThat(leases.takeAll(List.of(0, 1), "n1", "inc-1", LONG))
                .as("taken already: no move")
                .isEmpty();
    }

    @Test
    void manyPartitionsAreGivenUpTogetherOnlyAtTheEpochsHeld() {
        leases.partitions(4);
        join("n1", "inc-1");
        join("n2", "inc-2");
        List<PartitionLease> taken = leases.takeAll(List.of(0, 1, 2, 3), "n1", "inc-1", LONG);
        java.util.Map<Integer, Long> held = new java.util.TreeMap<>();
        taken.forEach(p -> held.put(p.partition(), p.epoch()));
        held.put(2, held.get(2) + 1); // an epoch it does not hold

        List<Integer> released = leases.releaseAll(held, "n1");

        assertThat(released).containsExactlyInAnyOrder(0, 1, 3);
        assertThat(leases.holds(2, "n1", held.get(2) - 1)).isTrue();
        assertThat(leases.takeAll(List.of(0, 1, 3), "n2", "inc-2", LONG))
                .as("given up: taken at once by another live node")
                .hasSize(3);
    }

    @Test
    void epochsOnlyGrowAndOnlyTheLastHolds() {
        leases.partitions(1);
        join("n1", "inc-1");
        join("n2", "inc-2");
        List<Long> epochs = new ArrayList<>();
        for (int move = 0; move < 6; move++) {
            String node = move % 2 == 0 ? "n1" : "n2";
            PartitionLease now =
                    leases.take(0, node, "inc-" + node.substring(1), LONG).orElseThrow();
            epochs.add(now.epoch());
            for (long older : epochs.subList(0, epochs.size() - 1)) {
                assertThat(leases.holds(0, "n1", older) || leases.holds(0, "n2", older))
                        .as("epoch " + older + " after the move to " + now.epoch())
                        .isFalse();
            }
            assertThat(leases.holds(0, node, now.epoch())).isTrue();
            assertThat(leases.release(0, node, now.epoch())).isTrue();
        }
        assertThat(epochs).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    }

    @Test
    void aRestartedProcessOfANodeTakesItsPartitionsAtANewEpoch() {
        leases.partitions(1);
        join("n1", "inc-1");
        PartitionLease before = leases.take(0, "n1", "inc-1", SHORT).orElseThrow();
        // the process dies; its successor, same node id, claims the node row once the old heartbeat is stale
        waitForHeartbeatAge("n1", SHORT);
        registry.register(node("n1", "inc-2"), SHORT);
        assertThat(partition(0, SHORT).ownerAlive()).as("the old incarnation").isFalse();
        PartitionLease after = leases.take(0, "n1", "inc-2", SHORT).orElseThrow();
        assertThat(after.epoch()).isEqualTo(before.epoch() + 1);
        assertThat(after.incarnation()).isEqualTo("inc-2");
    }

    @Test
    void aNodeWithASkewedClockCannotTakeALiveOwnersPartition() {
        leases.partitions(1);
        join("n1", "inc-1");
        join("skewed", "inc-s");
        leases.take(0, "n1", "inc-1", LONG).orElseThrow();
        PartitionLeases skewed = sameStoreSeenFromASkewedNode();
        // the skewed session's clock is hours off: by its own reckoning n1's heartbeat would be far older than LONG
        assertThat(skewed.take(0, "skewed", "inc-s", LONG)).isEmpty();
        assertThat(skewed.read(LONG).get(0)).satisfies(p -> {
            assertThat(p.ownedBy("n1", "inc-1")).isTrue();
            assertThat(p.ownerAlive()).isTrue();
            assertThat(p.sinceMove()).isLessThan(BOUND);
        });
    }

    @Test
    void badArgumentsGetClearErrors() {
        leases.partitions(1);
        assertThatThrownBy(() -> leases.read(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> leases.take(0, "n1", "inc-1", Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> leases.take(0, null, "inc-1", LONG)).isInstanceOf(NullPointerException.class);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /** Registers a process and gives it a first heartbeat. */
    private void join(String nodeId, String incarnation) {
        registry.register(node(nodeId, incarnation), LONG);
    }

    private static NodeInfo node(String nodeId, String incarnation) {
        return new NodeInfo(nodeId, incarnation, "host-" + nodeId, T0, Set.of("default"), 1);
    }

    private PartitionLease partition(int partition, Duration lease) {
        return leases.read(lease).get(partition);
    }

    private NodeStatus status(String nodeId) {
        return registry.nodes().stream()
                .filter(n -> n.nodeId().equals(nodeId))
                .findFirst()
                .orElseThrow();
    }

    private void waitForHeartbeatAge(String nodeId, Duration age) {
        advanceStoreClock(age);
        await().atMost(age.plus(BOUND))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> status(nodeId).heartbeatAge().compareTo(age) >= 0);
    }

    private interface Racer<T> {
        T run(int index) throws Exception;
    }

    /** Runs {@code n} racers at once, released together, and returns what each returned, in order. */
    private static <T> List<T> race(int n, Racer<T> racer) throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                Callable<T> call = () -> {
                    go.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                    return racer.run(index);
                };
                futures.add(pool.submit(call));
            }
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
            }
            return results;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a racer did not finish within " + BOUND, e);
        } finally {
            pool.shutdownNow();
        }
    }
}
