package io.ax.core.engine;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxIdempotency;
import io.ax.core.PayloadCodec;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.planning.Reconciliation;
import io.ax.core.store.InstanceStore;
import io.ax.core.wheel.AxTimerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/** Builds an {@link AxEngine}; not thread-safe. */
public final class AxEngineBuilder {
    InstanceStore store;
    ExecutorRouter router;
    AxClock clock = AxClock.system();
    String nodeId = "local";
    Duration tick = Duration.ofMillis(1);
    AxTimerFactory timers = AxTimerFactory.wheel();
    Map<String, PoolSettings> pools = Map.of();
    PoolSettings defaultPool = PoolSettings.defaults();
    Duration shutdownAwait = Duration.ofSeconds(10);
    Duration rejectionBackoff = Duration.ofSeconds(1);
    Duration misfireThreshold = Duration.ofSeconds(5);
    int maxCatchUp = 100;
    int takeovers = io.ax.core.engine.work.Takeovers.DEFAULT_BOUND;
    Duration clockJumpThreshold = Duration.ofMillis(500);
    Duration clockPause = Duration.ofSeconds(2);
    LeaderLease lease;
    NodeRegistry registry;
    WakeUps wakeUps;
    io.ax.core.store.Permits permits;
    TimeReference timeReference;
    Duration clusterTimeRefresh = Duration.ofSeconds(30);
    AxIdempotency idempotency;
    AxClock leaseClock = AxClock.system();
    ClusterSettings clusterSettings = ClusterSettings.defaults();
    Duration prefetchWindow = Duration.ofSeconds(60);
    Duration reconcileEvery = Reconciliation.EVERY;
    int prefetchPage = 5_000;
    int prefetchLimit = 100_000;
    int memoryRetention = 10_000;
    PayloadCodec payloadCodec = PayloadCodec.none();
    int maxPayloadSize = 64 * 1024;
    RetentionSettings retention = RetentionSettings.defaults();
    Duration activityFlush = Duration.ofSeconds(10);
    java.nio.file.Path recentCommitsFolder;
    final List<Consumer<AxDeadLetterEvent>> deadLetterListeners = new ArrayList<>();
    final List<Consumer<AxClockJumpEvent>> clockJumpListeners = new ArrayList<>();
    final List<Consumer<io.ax.core.AxStoreRegressionEvent>> storeRegressionListeners = new ArrayList<>();
    final List<EngineObserver> observers = new ArrayList<>();
    AttemptTracer tracer = AttemptTracer.NONE;
    AttemptTransactions transactions; // null: transactional tasks are refused
    TraceContextCapture traceCapture = TraceContextCapture.NONE;

    AxEngineBuilder() {}

    public AxEngineBuilder store(InstanceStore store) {
        this.store = store;
        return this;
    }

    public AxEngineBuilder router(ExecutorRouter router) {
        this.router = router;
        return this;
    }

    public AxEngineBuilder clock(AxClock clock) {
        this.clock = clock;
        return this;
    }

    public AxEngineBuilder nodeId(String nodeId) {
        this.nodeId = nodeId;
        return this;
    }

    /** The wheel's tick: the resolution of fire times. Default 1 ms. */
    public AxEngineBuilder tick(Duration tick) {
        this.tick = positive(tick, "tick");
        return this;
    }

    /** Pool sizes per group; groups not named use {@link #defaultPool}. */
    public AxEngineBuilder pools(Map<String, PoolSettings> pools) {
        this.pools = Map.copyOf(pools);
        return this;
    }

    public AxEngineBuilder defaultPool(PoolSettings defaultPool) {
        this.defaultPool = Objects.requireNonNull(defaultPool, "defaultPool");
        return this;
    }

    /** How long {@link AxEngine#stop()} waits for running work before interrupting it, zero or more. Default 10 s. */
    public AxEngineBuilder shutdownAwait(Duration shutdownAwait) {
        Objects.requireNonNull(shutdownAwait, "shutdownAwait");
        if (shutdownAwait.isNegative()) {
            throw new IllegalArgumentException("shutdownAwait must not be negative, was " + shutdownAwait);
        }
        this.shutdownAwait = shutdownAwait;
        return this;
    }

    /** How long an instance rejected by a full pool waits before it is dispatched again. Default 1 s. */
    public AxEngineBuilder rejectionBackoff(Duration rejectionBackoff) {
        this.rejectionBackoff = positive(rejectionBackoff, "rejectionBackoff");
        return this;
    }

    /** How late a computed fire time may be before the series skips ahead to the present. Default 5 s. */
    public AxEngineBuilder misfireThreshold(Duration misfireThreshold) {
        this.misfireThreshold = positive(misfireThreshold, "misfireThreshold");
        return this;
    }

    /** How many instances a FIRE_ALL misfire policy creates at most for the missed fire times. Default 100. */
    public AxEngineBuilder maxCatchUp(int maxCatchUp) {
        if (maxCatchUp < 1) {
            throw new IllegalArgumentException("maxCatchUp must be >= 1, was " + maxCatchUp);
        }
        this.maxCatchUp = maxCatchUp;
        return this;
    }

    /**
     * How far ahead the wheel holds PERSISTENT instances; later ones wait in the store and are loaded as time
     * passes. Default 60 s.
     */
    public AxEngineBuilder prefetchWindow(Duration prefetchWindow) {
        this.prefetchWindow = positive(prefetchWindow, "prefetchWindow");
        return this;
    }

    /** How many instances one read of the prefetch window returns at most. Default 5,000. */
    public AxEngineBuilder prefetchPage(int prefetchPage) {
        this.prefetchPage = atLeastOne(prefetchPage, "prefetchPage");
        return this;
    }

    /**
     * How many loaded instances the wheel holds at most; a backlog beyond it is loaded as the wheel drains.
     * Default 100,000.
     */
    public AxEngineBuilder prefetchLimit(int prefetchLimit) {
        this.prefetchLimit = atLeastOne(prefetchLimit, "prefetchLimit");
        return this;
    }

    /** How many finished MEMORY instances stay findable. Default 10,000. */
    public AxEngineBuilder memoryRetention(int memoryRetention) {
        this.memoryRetention = atLeastOne(memoryRetention, "memoryRetention");
        return this;
    }

    /** Maps payload objects to bytes and back; without one, payloads are strings or byte arrays. */
    public AxEngineBuilder payloadCodec(PayloadCodec payloadCodec) {
        this.payloadCodec = Objects.requireNonNull(payloadCodec, "payloadCodec");
        return this;
    }

    /** The largest payload accepted, in bytes. Default 64 KiB. */
    public AxEngineBuilder maxPayloadSize(int maxPayloadSize) {
        this.maxPayloadSize = atLeastOne(maxPayloadSize, "maxPayloadSize");
        return this;
    }

    /** Called on the dispatch or a worker thread when an instance goes DEAD; must not block. */
    public AxEngineBuilder onDeadLetter(Consumer<AxDeadLetterEvent> listener) {
        deadLetterListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /** A wall-clock jump beyond this (either way) against the monotonic clock pauses triggering. Default 500 ms. */
    public AxEngineBuilder clockJumpThreshold(Duration clockJumpThreshold) {
        this.clockJumpThreshold = positive(clockJumpThreshold, "clockJumpThreshold");
        return this;
    }

    /** How long trigger decisions wait after a clock jump. Default 2 s. */
    public AxEngineBuilder clockPause(Duration clockPause) {
        Objects.requireNonNull(clockPause, "clockPause");
        if (clockPause.isNegative()) {
            throw new IllegalArgumentException("clockPause must not be negative, was " + clockPause);
        }
        this.clockPause = clockPause;
        return this;
    }

    /** Called on the clock-watch thread when the wall clock jumps; must not block. */
    public AxEngineBuilder onClockJump(Consumer<AxClockJumpEvent> listener) {
        clockJumpListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Called on the events thread when this node finds that its store went back in time or is another server (see
     * {@link io.ax.core.AxStoreRegressionEvent}).
     */
    public AxEngineBuilder onStoreRegression(Consumer<io.ax.core.AxStoreRegressionEvent> listener) {
        storeRegressionListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /** Adds an observer of what the engine does (metrics, insight); see {@link EngineObserver}. */
    public AxEngineBuilder observer(EngineObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
        return this;
    }

    /** Opens a scope (a span) around each attempt; see {@link AttemptTracer}. Default: none. */
    /**
     * The transactions of the store's database that transactional tasks run their attempts in (see {@link
     * AttemptTransactions}); without them a transactional task is refused when it is registered.
     */
    public AxEngineBuilder transactions(AttemptTransactions transactions) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        return this;
    }

    public AxEngineBuilder tracer(AttemptTracer tracer) {
        this.tracer = Objects.requireNonNull(tracer, "tracer");
        return this;
    }

    /**
     * Reads the trace a caller of {@link io.ax.core.AxScheduler} is in, kept with the instances it schedules and
     * continued by their attempts' spans; see {@link TraceContextCapture}. Default: none.
     */
    public AxEngineBuilder traceCapture(TraceContextCapture traceCapture) {
        this.traceCapture = Objects.requireNonNull(traceCapture, "traceCapture");
        return this;
    }

    /**
     * Where the leader lease and the node registry live, shared by every node of the cluster (the JDBC ones for a
     * database). Default: in this JVM, so a node without a shared store is a cluster of one.
     */
    public AxEngineBuilder cluster(LeaderLease lease, NodeRegistry registry) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.registry = Objects.requireNonNull(registry, "registry");
        return this;
    }

    /**
     * How the nodes signal each other (Redis pub/sub, say). Default: the store's own when it keeps the cluster's
     * lease ({@code LISTEN/NOTIFY} on PostgreSQL), else none, and the nodes find their work by polling.
     */
    public AxEngineBuilder wakeUps(WakeUps wakeUps) {
        this.wakeUps = Objects.requireNonNull(wakeUps, "wakeUps");
        return this;
    }

    /**
     * Where the permits of cluster-wide limits are kept (Redis, say). Default: the store's own, when it keeps any (the
     * JDBC and in-memory stores do).
     */
    public AxEngineBuilder permits(io.ax.core.store.Permits permits) {
        this.permits = Objects.requireNonNull(permits, "permits");
        return this;
    }

    /**
     * Decides fire times on the cluster's clock: the engine's clock corrected by its offset from {@code reference}
     * (Redis {@code TIME}, the database's clock), measured at start and every {@code refresh}. Default: the clock as
     * it is.
     */
    public AxEngineBuilder clusterTime(TimeReference reference, Duration refresh) {
        this.timeReference = Objects.requireNonNull(reference, "reference");
        this.clusterTimeRefresh = positive(refresh, "refresh");
        return this;
    }

    /**
     * Where {@link io.ax.core.AxContext#idempotent} claims its keys. Default: in this JVM, which is right only for a
     * node alone.
     */
    public AxEngineBuilder idempotency(AxIdempotency idempotency) {
        this.idempotency = Objects.requireNonNull(idempotency, "idempotency");
        return this;
    }

    /** Heartbeat, lease, acknowledgement timeout, poll interval and ring size; validated together. */
    public AxEngineBuilder clusterSettings(ClusterSettings clusterSettings) {
        this.clusterSettings = Objects.requireNonNull(clusterSettings, "clusterSettings");
        return this;
    }

    /**
     * The clock the leader's right to decide is measured on (how long its lease has left). Real time by default,
     * also when the engine's scheduling clock is a test's fake.
     */
    public AxEngineBuilder leaseClock(AxClock leaseClock) {
        this.leaseClock = Objects.requireNonNull(leaseClock, "leaseClock");
        return this;
    }

    /**
     * Makes the timer that keeps what is due soon (fire times, retries' back-offs, timeouts). Default: the
     * hierarchical timing wheel ({@link AxTimerFactory#wheel()}).
     */
    public AxEngineBuilder timers(AxTimerFactory timers) {
        this.timers = Objects.requireNonNull(timers, "timers");
        return this;
    }

    /**
     * How often the leader checks that every task with a trigger has its next fire, and repairs those that do not
     * (a series found without one at two checks in a row). Default 10 s.
     */
    public AxEngineBuilder reconcileEvery(Duration reconcileEvery) {
        this.reconcileEvery = positive(reconcileEvery, "reconcileEvery");
        return this;
    }

    /**
     * How often this node writes the minutes of its activity rollup that changed (see {@link AxEngine#activity}): the
     * other nodes' charts show this node's counts at most this late. Default: 10 seconds.
     */
    public AxEngineBuilder activityFlush(Duration activityFlush) {
        this.activityFlush = positive(activityFlush, "activityFlush");
        return this;
    }

    /**
     * A folder where this node keeps what it committed in its last minutes (a file written each heartbeat when it
     * changed, deleted as it stops gracefully and replaced by one it leaves), and where it takes what other nodes of
     * the cluster left (at its start, then every heartbeat), or kept and stopped writing (they crashed): a failover to
     * a standby that had not received such a node's last commits is then named by a node that runs on, as one that
     * loses this node's own commits is. One folder per cluster, on the nodes' host or a volume all of them mount. Default: none,
     * and what a node remembers goes with it when it stops.
     */
    public AxEngineBuilder recentCommitsFolder(java.nio.file.Path folder) {
        this.recentCommitsFolder = Objects.requireNonNull(folder, "folder");
        return this;
    }

    /**
     * How long finished history is kept in the store and how the leader deletes what is older. Default: finished
     * instances 7 days, DEAD ones 30 days, a look every minute, batches of 500.
     */
    public AxEngineBuilder retention(RetentionSettings retention) {
        this.retention = Objects.requireNonNull(retention, "retention");
        return this;
    }

    /**
     * How many times an instance's running attempt that ended with its node (it crashed, froze, was cut off from the
     * store, or restarted while the attempt ran) runs again, whatever the task's retry policy says and without using
     * up its retries; the next such end makes it DEAD. Default 3; 0 makes the first such end DEAD.
     */
    public AxEngineBuilder takeovers(int takeovers) {
        if (takeovers < 0) {
            throw new IllegalArgumentException("takeovers must be >= 0, was " + takeovers);
        }
        this.takeovers = takeovers;
        return this;
    }

    public AxEngine build() {
        return new AxEngine(this);
    }

    private static int atLeastOne(int n, String what) {
        if (n < 1) {
            throw new IllegalArgumentException(what + " must be >= 1, was " + n);
        }
        return n;
    }

    private static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive, was " + d);
        }
        return d;
    }
}
