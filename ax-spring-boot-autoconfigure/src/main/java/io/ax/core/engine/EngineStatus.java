package io.ax.core.engine;

import io.ax.core.clock.ClockStatus;
import io.ax.core.clock.ClusterTimeStatus;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterView;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.PartitionTerms;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a node's engine tells of its own state, for health, metrics and the endpoint: {@link AxEngine#status()}.
 * Every answer comes from what the engine holds in memory, never from a question to the store, so it answers at once,
 * during an outage too. Thread-safe; each answer is a moment's.
 */
public interface EngineStatus {

    /** Entries in the wheel: fire batches, retries waiting for their back-off, and running attempts' timeouts. */
    int wheelSize();

    /** Instances executing right now on this node. */
    int executing();

    /**
     * Whether no work is in this engine's hands at this moment: nothing on its dispatch or outcomes thread, no attempt
     * running or waiting for a pool thread, no state change waiting to be written, and nothing the owner or the
     * prefetch has been asked to do (a workflow's next step, a fixed-delay series' next fire, a load of the window).
     * A moment's answer, read part by part: work moving from one part to the next may be missed, so a caller that
     * waits for the engine to settle (a test) asks again a little later before it believes it. Work due later, in the
     * wheel or the store, does not count.
     */
    default boolean isQuiet() {
        return busyWith().isEmpty();
    }

    /**
     * The parts of this engine that have work at this moment, by name ({@code dispatch}, {@code pools}, {@code
     * writer}, {@code fire-writer}, {@code end-writer}, {@code leader}, {@code prefetch}); empty when it is quiet
     * (see {@link #isQuiet()}).
     */
    List<String> busyWith();

    /** Instances due but not started on this node, per pool, and how long the oldest has waited. */
    Backlog backlog();

    /**
     * The instances the store held SCHEDULED and due when last read, loaded by a node or not: the cluster's backlog.
     * Read again in the background when older than a few seconds; never waits. Empty until the first read answered.
     */
    default Optional<DueInStore> dueInStore() {
        return Optional.empty();
    }

    /**
     * How long the oldest due instance has waited, in the store (as of its last read) or on this node, whichever is
     * older: the figure health compares with its maximum backlog age, and the cluster's lag.
     */
    default Duration oldestDueAge() {
        return older(
                backlog().oldestAge(), dueInStore().map(DueInStore::oldestAge).orElse(Duration.ZERO));
    }

    /**
     * How far behind this node is: how long the oldest fire it must start has waited, whether it waits in this node's
     * queue for a worker or in the store in a partition this node owns (as of the store's last read). Grows while more
     * is due than the node runs; zero when it keeps up.
     */
    default Duration lag() {
        return older(
                backlog().oldestAge(),
                dueInStore().map(DueInStore::oldestAgeHere).orElse(Duration.ZERO));
    }

    private static Duration older(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * How many instances wait on this node for a permit of a cluster-wide limit, by the limit's key ({@code
     * group:<name>}, {@code task:<name>}, {@code mutex:<key>}); empty when none waits.
     */
    default Map<String, Integer> waitingForPermits() {
        return Map.of();
    }

    /**
     * This node's offset from the cluster's reference clock (Redis or the database), which fire times are decided
     * on; empty when the engine's clock is taken as it is (no reference, or a clock of the application's own).
     */
    Optional<ClusterTimeStatus> clusterTime();

    /** What the clock-jump guard has seen, and whether trigger decisions wait now. */
    ClockStatus clockStatus();

    /**
     * The last time this node found its store gone back in time or become another server (see {@link
     * io.ax.core.AxStoreRegressionEvent}), also after it took part again; empty when it never did.
     */
    default Optional<io.ax.core.AxStoreRegressionEvent> storeRegression() {
        return Optional.empty();
    }

    /** Whether this node decides nothing now because its store went back in time (for a while after it found it). */
    default boolean fencedByStoreRegression() {
        return false;
    }

    /** The last failover this node saw without a loss of what it committed, in words; empty when it saw none. */
    default Optional<String> lastFailover() {
        return Optional.empty();
    }

    /** The cluster's nodes and who holds its lease, as this node sees them. */
    ClusterView cluster();

    /**
     * This node's contact with the cluster store when it is broken: since when its heartbeat has not gone through
     * (longer than two heartbeats), why, and whether it is so long that the other nodes may take it for dead; empty
     * while it reaches the store.
     */
    Optional<Membership.StoreContact> storeContact();

    /**
     * The partitions this node owns, with their epochs, how many each live node owns and the moves since the start;
     * empty before the engine started.
     */
    Optional<PartitionTerms> partitions();

    /** How long no holder of the cluster lease has been known to this node; zero while one is. */
    Duration leaderlessFor();

    /** The cluster's timing: heartbeat, lease, acknowledgement timeout, poll interval. */
    ClusterSettings clusterSettings();

    /**
     * Instances this node, as the owner of their partitions, took back from another node: by reason ({@code
     * ack-timeout}, {@code node-gone}).
     */
    Map<String, Long> reassigned();

    /**
     * Whether the store refuses this node's writes right now: since when and why. Meanwhile AX keeps its wheel,
     * starts no PERSISTENT work it cannot record, and retries its writes with back-off; once they land it resumes
     * by itself.
     */
    Optional<StoreOutage> storeOutage();

    /** Series this node's reconciliation found stopped and gave their next fire again, since the node started. */
    long repairedSeries();

    /**
     * This node's own instances in flight that it found in the store without anything here moving them on (an
     * attempt it did not run, a retry not on its way), and moved on, since the node started.
     */
    default long repairedInFlight() {
        return 0;
    }

    /**
     * How many dead letters the store held when last read, and when: read again in the background when older than a
     * few seconds (or once one was written or removed), never on the caller's thread; empty until the first read
     * answered.
     */
    Optional<DeadLetterCount> deadLetterCount();

    /**
     * Whether the store does not answer reads: since when and why (a failure, or a read that hangs), as the
     * background reads of {@link #deadLetterCount} found; empty while they answer.
     */
    Optional<StoreOutage> storeUnanswered();

    /** Events the application's listeners fell too far behind to be told. */
    long droppedEvents();

    /** How often this node gained the cluster lease since it started. */
    long failovers();
}
