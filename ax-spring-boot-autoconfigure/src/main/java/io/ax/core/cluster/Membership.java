package io.ax.core.cluster;

import io.ax.core.AxException;
import io.ax.core.clock.AxClock;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * This node's part in the cluster: registers it, writes its heartbeat, takes or renews the leader lease every
 * heartbeat (thread {@code ax-cluster}), and tells the engine when it becomes leader or stops being one.
 *
 * <p>The leader's right to decide ends a safety margin before its lease would, measured on this node's monotonic
 * clock from the moment it sent the write that granted the lease, so a long pause (GC, {@code SIGSTOP}) ends it
 * even before anyone else notices: {@link #epochIfLeader} answers 0 from then on.
 *
 * <p>Those deadlines are kept by a watchdog of their own ({@code ax-cluster-watch}), which never calls the store: a
 * round may hang in a call (a connection pool that waits for a connection, a statement on a connection the network
 * dropped without a word), and the node must still stop deciding, and say so, when its lease runs out. The same
 * watchdog notices when this node's heartbeat is so old that the other nodes may take it for dead (its last one
 * sent more than the lease less the safety margin ago) and it does not lead: it tells the engine once ({@link
 * Listener#cutOff}), so that the work they are about to take over does not go on here as well. Thread-safe.
 *
 * <p>When the store keeps partitions, each heartbeat that went through also asks for a round that moves them
 * towards the plan every node computes ({@link PartitionOwnership}, on a thread of its own, {@code ax-partitions}, so
 * that a slow round never delays a heartbeat), and {@link #partitions} says which this node owns
 * and until when it may act on them: the deadline of its last heartbeat that went through, kept on this node's
 * monotonic clock like the leader's. A graceful stop gives every partition up at once ({@link #resign}).
 *
 * <p>Why it is long: the lease, the heartbeat, the partitions' rounds and the watchdog that keeps their deadlines
 * share those deadlines; split, each would need the others' state.
 */
public final class Membership implements AutoCloseable {

    private static final System.Logger LOG = Loggers.get(Membership.class.getName());

    /** What the engine hears; called on the {@code ax-cluster} thread (or the starting thread), one at a time. */
    public interface Listener {
        /** This node leads now, at {@code epoch}. */
        void leading(long epoch);

        /** This node no longer leads (lost, released or fenced out). */
        void following();

        /** The live nodes changed (or were read again). */
        default void nodes(List<NodeStatus> live) {}

        /**
         * This node has not reached the cluster store for so long that the other nodes may take it for dead and run
         * its work elsewhere ({@code unreachedFor} since its last heartbeat was sent), and it does not lead (or no
         * longer). Called once per break, on the watchdog thread, or on the round's thread when the break is seen
         * only once it is over (the whole process stood still); it must not block. The node reaches the store again
         * when {@link #reachesStoreFor} says so.
         */
        default void cutOff(Duration unreachedFor) {}
    }

    private final NodeRegistry registry;
    private final LeaderLease lease;
    private final AxClock clock;
    private final NodeInfo self;
    private final ClusterSettings settings;
    private final Listener listener;
    private final ScheduledThreadPoolExecutor thread;
    /** Keeps the deadlines whatever a round waits for; never calls the store. */
    private final ScheduledThreadPoolExecutor watchdog;

    /** The lease this node holds, or null; guarded by this. */
    private Lease held;
    /** Until when (monotonic nanos) this node may decide; guarded by this. */
    private long decideUntilNanos;

    private volatile ClusterView view;
    private volatile boolean stopped;
    private volatile long noLeaderSinceNanos;
    private volatile boolean failing;
    /**
     * Since when (monotonic nanos) this node reaches the store without a break; reset when a round fails. A node
     * that was cut off sees every other node's heartbeat as stale at first: see {@link #reachesStoreFor}.
     */
    private volatile long reachingSinceNanos = Long.MIN_VALUE;
    /** When (monotonic nanos) the heartbeat of the last round that succeeded was sent. */
    private volatile long reachedSentNanos;
    /** Whether this node's heartbeat is older than the others allow, since it last went through. */
    private volatile boolean cutOff;
    /** Whether the listener was told of the present cut-off ({@link Listener#cutOff}). */
    private volatile boolean cutOffTold;
    /** Guards the telling of a cut-off, which the watch and the round after a freeze may both see. */
    private final Object breaks = new Object();
    /** How many cut-offs so far were long enough for the other nodes to take this node for dead. */
    private final java.util.concurrent.atomic.AtomicLong cutOffsTold = new java.util.concurrent.atomic.AtomicLong();
    /** Why the last round failed, or null. */
    private volatile String lastFailure;
    /** The thread of the rounds ({@code ax-cluster}), to say where a round that does not return waits. */
    private volatile Thread roundThread;

    /** The partitions of the cluster, or null when the store keeps none. */
    private final PartitionLeases partitionLeases;
    /** What the engine does with the partitions this node gains and loses. */
    private final PartitionOwnership.Listener partitionListener;
    /** Created at the start, once the store has told the partition count; its rounds run on {@link #partitionThread}. */
    private volatile PartitionOwnership ownership;
    /**
     * Runs the partitions' rounds ({@code ax-partitions}), apart from the heartbeats: a round that takes or hands over
     * many partitions, or waits on a slow store, must never delay a heartbeat or the lease's renewal.
     */
    private final ScheduledThreadPoolExecutor partitionThread;
    /** The registry as the last heartbeat read it, for the next partition round; null once that round took it. */
    private final java.util.concurrent.atomic.AtomicReference<List<NodeStatus>> nextRound =
            new java.util.concurrent.atomic.AtomicReference<>();

    private volatile PartitionTerms terms;

    /** What this node knows the store committed, to notice it going back; null when nobody watches. */
    private volatile StoreHistory history;
    /** Which server the store is; null when it tells none. */
    private volatile StoreIdentity identity;
    /** Whether this node decides nothing because its store went back in time, until {@link #fencedUntilNanos}. */
    private volatile boolean fenced;

    private volatile long fencedUntilNanos;

    public Membership(
            NodeRegistry registry,
            LeaderLease lease,
            AxClock clock,
            NodeInfo self,
            ClusterSettings settings,
            Listener listener) {
        this(registry, lease, clock, self, settings, listener, null, null);
    }

    /**
     * @param partitionLeases the cluster's partitions, each owned by one node at a time; null for none
     * @param partitionListener hears, on the cluster thread, of each partition this node gains and loses (the loss
     *     before the partition is given up); null for nobody
     */
    public Membership(
            NodeRegistry registry,
            LeaderLease lease,
            AxClock clock,
            NodeInfo self,
            ClusterSettings settings,
            Listener listener,
            PartitionLeases partitionLeases,
            PartitionOwnership.Listener partitionListener) {
        this.partitionLeases = partitionLeases;
        this.partitionListener = partitionListener;
        this.registry = registry;
        this.lease = lease;
        this.clock = clock;
        this.self = self;
        this.settings = settings;
        this.listener = listener;
        ThreadFactory named = r -> {
            Thread t = new Thread(r, "ax-cluster");
            t.setDaemon(true);
            roundThread = t;
            return t;
        };
        this.thread = new ScheduledThreadPoolExecutor(1, named);
        this.watchdog = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ax-cluster-watch");
            t.setDaemon(true);
            return t;
        });
        this.partitionThread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ax-partitions");
            t.setDaemon(true);
            return t;
        });
        this.view = new ClusterView(self.nodeId(), ClusterView.Role.STANDBY, null, 0, List.of(self.nodeId()));
        this.noLeaderSinceNanos = clock.nanoTime();
        this.reachedSentNanos = clock.nanoTime();
    }

    /**
     * Compares, every round, what the store returns with what this node has seen it commit ({@link StoreHistory}):
     * its own heartbeat (written only over one as recent as the last it read back), the leader's and the partitions'
     * epochs, and the server's identity. Call before {@link #start}.
     *
     * @param identity which server the store is; null when it tells none
     */
    public void watch(StoreHistory history, StoreIdentity identity) {
        this.history = Objects.requireNonNull(history, "history");
        this.identity = identity;
        PartitionOwnership o = ownership;
        if (o != null) {
            o.checkReads(history::partitions);
        }
    }

    /**
     * Stops deciding at once, for {@code hold}: the store lost writes this node knows were committed, so what it
     * holds in memory no longer matches the store. It steps down, gives its partitions up (their work stops here
     * first) and raises, in the store, every epoch that went back above the highest it has seen, so that no
     * (partition, epoch) granted in the lost history is granted again in this one. Then it takes part again as a
     * node that joins. Never throws; a second call extends the hold.
     */
    public void fence(Duration hold) {
        fencedUntilNanos = clock.nanoTime() + hold.toNanos();
        fenced = true;
        stepDown();
        PartitionOwnership o = ownership;
        StoreHistory h = history;
        try {
            partitionThread.execute(() -> {
                if (o != null) {
                    o.releaseAll();
                }
                raiseEpochs(h);
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the node stops
        }
    }

    /** Whether this node decides nothing now because its store went back in time ({@link #fence}). */
    public boolean isFenced() {
        if (fenced && clock.nanoTime() - fencedUntilNanos >= 0) {
            fenced = false;
            LOG.log(Level.INFO, "Node {0} takes part in the cluster again after its store went back", self.nodeId());
        }
        return fenced;
    }

    private void raiseEpochs(StoreHistory h) {
        if (h == null) {
            return;
        }
        try {
            if (partitionLeases != null) {
                int raised = partitionLeases.raiseEpochs(h.partitionEpochsSeen());
                if (raised > 0) {
                    LOG.log(
                            Level.WARNING,
                            "Node {0} raised the epochs of {1} partitions above the highest it had seen, so that"
                                    + " none granted before the store went back is granted again",
                            self.nodeId(),
                            raised);
                }
            }
            lease.raiseEpoch(h.leaderEpochSeen());
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not raise the epochs that went back; it tries again when it notices: {1}",
                    self.nodeId(),
                    e.toString());
        }
    }

    /**
     * Registers this node (waiting up to one lease for the row of a crashed earlier run with the same id to go
     * stale), runs one round at once, so that a node alone leads as soon as it has started, then one every
     * heartbeat.
     *
     * @throws NodeIdInUseException when another live process runs under this node id
     */
    public void start() {
        register();
        refuseMixedProtocols();
        startPartitions();
        reachedSentNanos = clock.nanoTime();
        round();
        awaitPartitionRound(); // a node alone owns every partition when its start returns
        long every = settings.heartbeat().toNanos();
        thread.scheduleWithFixedDelay(this::round, every, every, TimeUnit.NANOSECONDS);
        long watchEvery =
                Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.MILLISECONDS.toNanos(250), every / 4));
        watchdog.scheduleWithFixedDelay(this::watch, watchEvery, watchEvery, TimeUnit.NANOSECONDS);
    }

    /**
     * Learns the cluster's partition count (the first node records its own) and starts taking part in their
     * ownership.
     *
     * @throws PartitionCountMismatchException when the store records another count than this node's
     */
    private void startPartitions() {
        if (partitionLeases == null) {
            return;
        }
        int count = partitionLeases.partitions(settings.partitions());
        PartitionTerms t = new PartitionTerms(clock, count);
        Duration heartbeat = settings.heartbeat();
        this.ownership = new PartitionOwnership(
                partitionLeases,
                self.nodeId(),
                self.incarnation(),
                count,
                settings.virtualNodes(),
                settings.lease(),
                // fresh: heartbeats that come steadily. Half the lease: a heartbeat delayed by a busy moment must not
                // restart a joining node's settling (at two heartbeats, a loaded machine never let one settle on
                // some nodes and did on others, and their plans pulled the partitions to and fro), while a node
                // silent for longer than that, over and over, still never settles
                longest(heartbeat.multipliedBy(2), settings.lease().dividedBy(2)),
                heartbeat.multipliedBy(3), // settle: seen alive that long before the plan counts a node
                settings.lease().plus(heartbeat), // a partition free that long is taken by whoever gets to it
                new PartitionOwnership.Listener() {
                    @Override
                    public void gained(int partition, long epoch) {
                        t.gain(partition, epoch);
                        if (partitionListener != null) {
                            partitionListener.gained(partition, epoch);
                        }
                    }

                    @Override
                    public void lost(int partition, long epoch) {
                        t.lose(partition);
                        if (partitionListener != null) {
                            partitionListener.lost(partition, epoch);
                        }
                    }
                });
        this.terms = t;
        StoreHistory h = history;
        if (h != null) {
            ownership.checkReads(h::partitions);
        }
    }

    private static Duration longest(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The partitions this node owns and until when it may act on them; empty when the store keeps no partitions. */
    public Optional<PartitionTerms> partitions() {
        return Optional.ofNullable(terms);
    }

    /**
     * Before a node writes anything: refuses to start beside live nodes of another cluster protocol. {@link #start}
     * asks again once the node is registered, for two nodes of different protocols that start together.
     *
     * @throws MixedClusterProtocolException when a live node speaks another protocol
     */
    public void checkProtocol() {
        List<NodeStatus> others = otherProtocols();
        if (!others.isEmpty()) {
            throw new MixedClusterProtocolException(self.nodeId(), self.protocol(), others);
        }
    }

    /**
     * Read after registering, so that of two nodes of different protocols starting together, at least one sees the
     * other (both may refuse; neither runs beside the other): a refused node removes its registration.
     */
    private void refuseMixedProtocols() {
        List<NodeStatus> others = otherProtocols();
        if (!others.isEmpty()) {
            try {
                registry.remove(self.nodeId(), self.incarnation());
            } catch (RuntimeException e) {
                // the row goes stale by itself within the lease; the refusal is what matters
            }
            throw new MixedClusterProtocolException(self.nodeId(), self.protocol(), others);
        }
    }

    private List<NodeStatus> otherProtocols() {
        return registry.nodes().stream()
                .filter(n -> !n.nodeId().equals(self.nodeId())
                        && n.aliveWithin(settings.lease())
                        && n.protocol() != self.protocol())
                .toList();
    }

    private void register() {
        long deadline =
                clock.nanoTime() + settings.lease().plus(settings.heartbeat()).toNanos();
        while (true) {
            try {
                registry.register(self, settings.lease());
                return;
            } catch (NodeIdInUseException e) {
                // a process killed a moment ago leaves a fresh heartbeat behind; a live one keeps it fresh
                if (clock.nanoTime() >= deadline) {
                    throw e;
                }
                LOG.log(
                        Level.INFO,
                        "Node id ''{0}'' has a recent heartbeat; waiting for it to go stale",
                        self.nodeId());
                try {
                    TimeUnit.NANOSECONDS.sleep(settings.heartbeat().toNanos() / 2);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new AxException("Interrupted while registering node " + self.nodeId(), interrupted);
                }
            }
        }
    }

    /** One heartbeat: our row, the lease, the view. Never throws: a failed round is retried at the next. */
    void round() {
        long sentNanos = clock.nanoTime();
        try {
            if (!heartbeat()) {
                LOG.log(
                        Level.WARNING,
                        "Node {0}''s registration was taken over (declared dead?); registering again",
                        self.nodeId());
                registry.register(self, settings.lease());
            }
            // the heartbeat went through: the node is in contact again before it decides anything in this round (a
            // node that took the lease back in this round, still counted as cut off, gave back what it claimed)
            reached(sentNanos);
            StoreHistory h = history;
            if (h != null && identity != null) {
                h.identity(identity.read());
            }
            List<NodeStatus> all = registry.nodes();
            if (h != null) {
                for (NodeStatus n : all) {
                    if (n.nodeId().equals(self.nodeId()) && n.incarnation().equals(self.incarnation())) {
                        h.ownHeartbeatRead(n.lastHeartbeat());
                    }
                }
            }
            List<NodeStatus> live =
                    all.stream().filter(n -> n.aliveWithin(settings.lease())).toList();
            // the live nodes first: a node that takes the lease in this round judges by them whose work is orphaned,
            // and before its first read it knows no node but itself (a new node winning the lease on its first
            // round would take every live node's running work for a dead one's)
            listener.nodes(live);
            if (!stopped && !isFenced()) {
                holdLease();
            }
            LeaderInfo info = lease.current();
            if (h != null) {
                h.leaderEpoch(info.epoch());
            }
            publish(info, live);
            movePartitions(all, sentNanos);
        } catch (RuntimeException e) {
            lastFailure = e.toString();
            if (!failing) {
                failing = true;
                LOG.log(
                        Level.WARNING,
                        "Node {0} cannot reach the cluster store; it stops deciding when its lease runs out: {1}",
                        self.nodeId(),
                        e.toString());
            }
            checkDeadline();
        }
    }

    /**
     * This round's heartbeat. Once the store has returned one of this node's heartbeats, the next is written only over
     * one at least as recent: when the row holds an older one, the store lost it ({@link
     * StoreHistory#ownHeartbeatFound}), and the heartbeat is written again over what it holds.
     *
     * @return false when the row is gone or another incarnation's
     */
    private boolean heartbeat() {
        int capacity = stopped ? NodeStatus.LEAVING : self.capacity();
        StoreHistory h = history;
        java.time.Instant known = h == null ? null : h.ownHeartbeat();
        if (known == null) {
            return registry.heartbeat(self.nodeId(), self.incarnation(), capacity);
        }
        if (registry.heartbeat(self.nodeId(), self.incarnation(), capacity, known)) {
            return true;
        }
        for (NodeStatus n : registry.nodes()) {
            if (n.nodeId().equals(self.nodeId()) && n.incarnation().equals(self.incarnation())) {
                h.ownHeartbeatFound(n.lastHeartbeat());
                return registry.heartbeat(self.nodeId(), self.incarnation(), capacity);
            }
        }
        return false;
    }

    /**
     * This node's part in the partitions' ownership, after its heartbeat went through: its right to act on its
     * partitions lasts from that heartbeat's sending, and the round moves partitions towards the plan.
     */
    private void movePartitions(List<NodeStatus> all, long sentNanos) {
        if (ownership == null || stopped || isFenced()) {
            return;
        }
        if (clock.nanoTime() - sentNanos < contactAllowance()) {
            terms.reached(sentNanos + contactAllowance());
        }
        if (nextRound.getAndSet(all) == null) {
            try {
                partitionThread.execute(this::partitionRound);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // the node stops
            }
        }
    }

    /** On ax-partitions: one round over the registry as the latest heartbeat read it (rounds asked meanwhile are one). */
    private void partitionRound() {
        List<NodeStatus> all = nextRound.getAndSet(null);
        PartitionOwnership o = ownership;
        if (all == null || o == null || stopped || isFenced()) {
            return;
        }
        try {
            o.round(all, clock.nanoTime());
            terms.owners(o.owners());
            if (partitionsFailing) {
                partitionsFailing = false;
                LOG.log(Level.INFO, "Node {0} moves partitions again", self.nodeId());
            }
        } catch (RuntimeException e) {
            // the heartbeat went through: the node is in contact, and the next round moves the partitions
            if (!partitionsFailing) {
                partitionsFailing = true;
                LOG.log(
                        Level.WARNING,
                        "Node {0} could not move partitions in this round; it tries again every heartbeat: {1}",
                        self.nodeId(),
                        e.toString());
            }
        }
    }

    /** Waits, at most a lease, for the partition rounds asked so far to have run. */
    private void awaitPartitionRound() {
        if (ownership == null) {
            return;
        }
        try {
            partitionThread.submit(() -> {}).get(settings.lease().toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} took no partition yet: its first round did not end in time",
                    self.nodeId());
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the node stops
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the last partition round failed: logged once, when it begins. Touched on ax-partitions. */
    private boolean partitionsFailing;

    /**
     * A round whose heartbeat went through, sent at {@code sentNanos}. After a break (a failed round, a cut-off,
     * or merely a round that waited so long that the heartbeats went more than two apart) the others' heartbeats
     * may look stale for a while: {@link #reachesStoreFor} counts from now.
     */
    private void reached(long sentNanos) {
        long gap = sentNanos - reachedSentNanos;
        if (gap >= contactAllowance() && !stopped) {
            // the heartbeats went so far apart that the others may have taken this node for dead meanwhile, though
            // its watch never said so: the whole process stood still (frozen, paused), the watch with it. Work it
            // claimed before may run elsewhere by now, so the break is counted before the contact is made fresh
            synchronized (breaks) {
                if (!cutOff) {
                    cutOffTold = false;
                    cutOff = true;
                }
            }
            tellCutOff(gap, true);
        }
        reachedSentNanos = sentNanos;
        if (clock.nanoTime() - sentNanos >= contactAllowance()) {
            // the call hung for longer than the others wait: its heartbeat may have been written when it was sent,
            // long ago, and proves no fresh contact. The next round, sent now, does
            return;
        }
        boolean broke =
                failing || cutOff || gap > settings.heartbeat().multipliedBy(2).toNanos();
        if (!broke) {
            return;
        }
        boolean said = failing || cutOff;
        failing = false;
        cutOff = false;
        lastFailure = null;
        reachingSinceNanos = clock.nanoTime();
        if (said) {
            LOG.log(Level.INFO, "Node {0} reaches the cluster store again", self.nodeId());
            StoreHistory h = history;
            if (h != null && identity == null) {
                // without an identity to read, an outage is the only sign of a failover: check what was committed
                h.reconnected();
            }
        }
    }

    /**
     * How long after its last heartbeat was sent this node may still count on the others taking it for alive: they
     * wait a lease on the store's clock, and the safety margin keeps this node on the early side of that.
     */
    private long contactAllowance() {
        return settings.lease().minus(settings.safetyMargin()).toNanos();
    }

    /**
     * On the watchdog thread: the leader's deadline, and whether this node's heartbeat has grown so old that the
     * others may take it for dead. Never calls the store.
     */
    void watch() {
        try {
            checkDeadline();
            long unreached = clock.nanoTime() - reachedSentNanos;
            if (!cutOff && !stopped && unreached >= contactAllowance()) {
                synchronized (breaks) {
                    if (!cutOff) {
                        cutOffTold = false;
                        cutOff = true;
                    }
                }
            }
            tellCutOff(unreached, false);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "The cluster watchdog of node {0} failed; it goes on: {1}",
                    self.nodeId(),
                    e.toString());
        }
    }

    /**
     * Tells the listener of the present cut-off, once. While this node holds the lease, no other node takes its work
     * over (only a leader does): it is told once it stops leading. A node that took the lease in a round whose
     * heartbeat hung until just now leads with a heartbeat about to go stale, and its next round makes it fresh.
     *
     * @param over whether the break is seen only now that it is over (the heartbeat after it went through)
     */
    private void tellCutOff(long unreached, boolean over) {
        synchronized (breaks) {
            if (!cutOff || cutOffTold || stopped || epochIfLeader() != 0) {
                return;
            }
            cutOffTold = true;
            cutOffsTold.incrementAndGet();
        }
        String waitingIn = waitingIn();
        LOG.log(
                Level.WARNING,
                over
                        ? "Node {0}''s heartbeats went {1} ms apart, though its watch did not see the break: the"
                                + " process stood still (frozen or paused), and the other nodes may have taken it for"
                                + " dead and run its work; it stops what it was running and starts nothing it claimed"
                                + " before{2}"
                        : "Node {0} has not reached the cluster store for {1} ms: the other nodes may take it for dead"
                                + " and run its work; it decides nothing and stops its running work until it reaches"
                                + " the store again{2}",
                self.nodeId(),
                Long.toString(TimeUnit.NANOSECONDS.toMillis(unreached)),
                over
                        ? ""
                        : lastFailure == null
                                ? " (its calls to the store do not return"
                                        + (waitingIn.isEmpty() ? "" : ": waiting in " + waitingIn) + ")"
                                : ": " + lastFailure);
        listener.cutOff(Duration.ofNanos(unreached));
    }

    private void holdLease() {
        Lease current;
        synchronized (this) {
            current = held;
        }
        long sentNanos = clock.nanoTime();
        Optional<Lease> got = current != null
                ? lease.renew(current, settings.lease())
                : lease.acquire(self.nodeId(), settings.lease());
        if (got.isEmpty()) {
            if (current != null) {
                LOG.log(Level.WARNING, "Node {0} lost the leader lease (epoch {1})", self.nodeId(), current.epoch());
                stepDown();
            }
            return;
        }
        Lease now = got.get();
        StoreHistory h = history;
        if (current == null && h != null) {
            h.leaderEpoch(now.epoch()); // a grant below an epoch seen before: the store lost the later grants
            if (fenced) {
                lease.release(now);
                return;
            }
        }
        boolean newlyLeading;
        synchronized (this) {
            newlyLeading = held == null || held.epoch() != now.epoch();
            held = now;
            decideUntilNanos = sentNanos
                    + now.remaining().toNanos()
                    - settings.safetyMargin().toNanos();
        }
        if (newlyLeading) {
            LOG.log(Level.INFO, "Node {0} leads the cluster at epoch {1}", self.nodeId(), now.epoch());
            listener.leading(now.epoch());
        }
    }

    private void checkDeadline() {
        boolean expired;
        synchronized (this) {
            expired = held != null && clock.nanoTime() >= decideUntilNanos;
        }
        if (expired) {
            LOG.log(Level.WARNING, "Node {0} could not renew its lease in time; it stops deciding", self.nodeId());
            stepDown();
        }
    }

    /**
     * The epoch to fence this node's decisions with, while it leads and its lease has more than the safety margin
     * left; 0 otherwise (and a lease that ran out is given up at once).
     */
    public long epochIfLeader() {
        boolean expired;
        synchronized (this) {
            if (held == null) {
                return 0;
            }
            expired = clock.nanoTime() >= decideUntilNanos;
            if (!expired) {
                return held.epoch();
            }
        }
        stepDown();
        return 0;
    }

    /** Stops leading at once: a write was fenced out, or the lease ran out. Does not release the lease. */
    public void stepDown() {
        Lease was;
        synchronized (this) {
            was = held;
            held = null;
        }
        if (was != null) {
            noLeaderSinceNanos = clock.nanoTime();
            view = new ClusterView(self.nodeId(), ClusterView.Role.STANDBY, null, was.epoch(), view.liveNodes());
            listener.following();
        }
    }

    private void publish(LeaderInfo info, List<NodeStatus> live) {
        boolean leading;
        synchronized (this) {
            leading = held != null;
        }
        String leader = info.held() ? info.holder() : null;
        if (leader == null) {
            if (view.leader() != null) {
                noLeaderSinceNanos = clock.nanoTime();
            }
        }
        view = new ClusterView(
                self.nodeId(),
                leading ? ClusterView.Role.LEADER : ClusterView.Role.STANDBY,
                leader,
                info.epoch(),
                live.stream().map(NodeStatus::nodeId).toList(),
                info.held() ? info.expiresAt() : null,
                live);
    }

    /** How this node sees the cluster, as of its last heartbeat. */
    public ClusterView view() {
        return view;
    }

    /**
     * Whether this node has reached the store without a break for at least {@code span}. After a break (an outage,
     * a cut), the other nodes' heartbeats look stale until they have had one heartbeat to catch up: a node that
     * judged them dead before that would take over work they are still running.
     */
    public boolean reachesStoreFor(Duration span) {
        long since = reachingSinceNanos;
        return !failing && !cutOff && (since == Long.MIN_VALUE || clock.nanoTime() - since >= span.toNanos());
    }

    /**
     * How long this node has not reached the cluster store, when that is longer than two heartbeats (a round failed,
     * or hangs in a call), with the last failure when a round failed; empty while its rounds go through. Answers
     * from what the node holds: it never calls the store.
     */
    public Optional<StoreContact> unreached() {
        long unreached = clock.nanoTime() - reachedSentNanos;
        if (!failing && unreached <= settings.heartbeat().multipliedBy(2).toNanos()) {
            return Optional.empty();
        }
        String failure = lastFailure;
        return Optional.of(
                new StoreContact(Duration.ofNanos(unreached), failure, isCutOff(), failure == null ? waitingIn() : ""));
    }

    /** Where the round that does not return waits; empty when that cannot be told. */
    private String waitingIn() {
        return Objects.requireNonNullElse(WaitingIn.of(roundThread), "");
    }

    /**
     * Whether this node's heartbeat is so old that the other nodes may take it for dead (see {@link Listener#cutOff})
     * and it does not lead: while it holds the lease, no other node takes its work over.
     */
    public boolean isCutOff() {
        // read afresh, not only from the watch's flag: after a freeze, a worker may run before the watch does
        boolean unreached = cutOff || (!stopped && clock.nanoTime() - reachedSentNanos >= contactAllowance());
        return unreached && epochIfLeader() == 0;
    }

    /**
     * How many times so far this node was cut off for so long that the other nodes may have taken it for dead (and
     * its work over): work it took on before a change of this count may run elsewhere by now.
     */
    public long cutOffs() {
        return cutOffsTold.get();
    }

    /**
     * This node's contact with the cluster store, when it is broken.
     *
     * @param unreachedFor since the heartbeat of its last round that went through was sent
     * @param failure why the last round failed; null when the rounds hang rather than fail
     * @param cutOff whether it is so long that the other nodes may take this node for dead
     * @param waitingIn when the rounds hang, where the heartbeat's call waits (the frame, the first outside the JDK,
     *     AX's own: a pool with no connection to give reads {@code ... < ConcurrentBag.borrow < ...}); else empty
     */
    public record StoreContact(Duration unreachedFor, String failure, boolean cutOff, String waitingIn) {}

    /** How long no leader has been known; zero while one is. */
    public Duration leaderlessFor() {
        return view.leader() != null ? Duration.ZERO : Duration.ofNanos(clock.nanoTime() - noLeaderSinceNanos);
    }

    public ClusterSettings settings() {
        return settings;
    }

    /**
     * Hands leadership over at once: stops taking or renewing the lease and releases it, so a standby takes over
     * without waiting for it to expire, and tells the leader in its heartbeat that this node is leaving, so that it
     * assigns it nothing more. The heartbeat goes on until {@link #close}, so the work still running here is not
     * taken for a dead node's. Idempotent; never throws.
     */
    public void resign() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            registry.heartbeat(self.nodeId(), self.incarnation(), NodeStatus.LEAVING);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Node {0} could not say it is leaving: {1}", self.nodeId(), e.toString());
        }
        releasePartitions();
        Lease was;
        synchronized (this) {
            was = held;
            held = null;
        }
        if (was != null) {
            try {
                lease.release(was);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Node {0} could not release its lease: {1}", self.nodeId(), e.toString());
            }
            listener.following();
        }
    }

    /**
     * Gives every partition up at once, on ax-partitions so that no round runs meanwhile: the others take them at
     * their next round rather than after the lease.
     */
    private void releasePartitions() {
        PartitionOwnership o = ownership;
        if (o == null) {
            return;
        }
        try {
            partitionThread.submit(o::releaseAll).get(settings.lease().toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException | java.util.concurrent.ExecutionException e) {
            LOG.log(Level.WARNING, "Node {0} could not give its partitions up: {1}", self.nodeId(), e.toString());
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not give its partitions up within {1}: the others take them when its heartbeat"
                            + " is older than the lease",
                    self.nodeId(),
                    settings.lease());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Resigns, stops the heartbeats and removes this node's row: it has no work left. Idempotent; never throws. */
    @Override
    public void close() {
        resign();
        thread.shutdownNow();
        watchdog.shutdownNow();
        partitionThread.shutdownNow();
        try {
            registry.remove(self.nodeId(), self.incarnation());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Node {0} could not deregister: {1}", self.nodeId(), e.toString());
        }
    }
}
