package io.ax.core.cluster;

import io.ax.core.AxException;
import io.ax.core.clock.AxClock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
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
 * even before anyone else notices: {@link #epochIfLeader} answers 0 from then on. Thread-safe.
 */
public final class Membership implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Membership.class.getName());

    /** What the engine hears; called on the {@code ax-cluster} thread (or the starting thread), one at a time. */
    public interface Listener {
        /** This node leads now, at {@code epoch}. */
        void leading(long epoch);

        /** This node no longer leads (lost, released or fenced out). */
        void following();

        /** The live nodes changed (or were read again). */
        default void nodes(List<NodeStatus> live) {}
    }

    private final NodeRegistry registry;
    private final LeaderLease lease;
    private final AxClock clock;
    private final NodeInfo self;
    private final ClusterSettings settings;
    private final Listener listener;
    private final ScheduledThreadPoolExecutor thread;

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

    public Membership(
            NodeRegistry registry,
            LeaderLease lease,
            AxClock clock,
            NodeInfo self,
            ClusterSettings settings,
            Listener listener) {
        this.registry = registry;
        this.lease = lease;
        this.clock = clock;
        this.self = self;
        this.settings = settings;
        this.listener = listener;
        ThreadFactory named = r -> {
            Thread t = new Thread(r, "ax-cluster");
            t.setDaemon(true);
            return t;
        };
        this.thread = new ScheduledThreadPoolExecutor(1, named);
        this.view = new ClusterView(self.nodeId(), ClusterView.Role.STANDBY, null, 0, List.of(self.nodeId()));
        this.noLeaderSinceNanos = clock.nanoTime();
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
        round();
        long every = settings.heartbeat().toNanos();
        thread.scheduleWithFixedDelay(this::round, every, every, TimeUnit.NANOSECONDS);
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
        try {
            if (!registry.heartbeat(
                    self.nodeId(), self.incarnation(), stopped ? NodeStatus.LEAVING : self.capacity())) {
                LOG.log(
                        Level.WARNING,
                        "Node {0}''s registration was taken over (declared dead?); registering again",
                        self.nodeId());
                registry.register(self, settings.lease());
            }
            List<NodeStatus> live = registry.nodes().stream()
                    .filter(n -> n.aliveWithin(settings.lease()))
                    .toList();
            // the live nodes first: a node that takes the lease in this round judges by them whose work is orphaned,
            // and before its first read it knows no node but itself (a new node winning the lease on its first
            // round would take every live node's running work for a dead one's)
            listener.nodes(live);
            if (!stopped) {
                holdLease();
            }
            LeaderInfo info = lease.current();
            publish(info, live);
            if (failing) {
                failing = false;
                reachingSinceNanos = clock.nanoTime();
                LOG.log(Level.INFO, "Node {0} reaches the cluster store again", self.nodeId());
            }
        } catch (RuntimeException e) {
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
        return !failing && (since == Long.MIN_VALUE || clock.nanoTime() - since >= span.toNanos());
    }

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

    /** Resigns, stops the heartbeats and removes this node's row: it has no work left. Idempotent; never throws. */
    @Override
    public void close() {
        resign();
        thread.shutdownNow();
        try {
            registry.remove(self.nodeId(), self.incarnation());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Node {0} could not deregister: {1}", self.nodeId(), e.toString());
        }
    }
}
