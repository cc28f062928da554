package io.ax.autoconfigure.metrics;

import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.EngineObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * AX's Micrometer meters, fed by the engine as an {@link EngineObserver}. Tags are bounded: {@code group} (the
 * configured pools), {@code outcome}, {@code direction}, and {@code task} only when {@code ax.metrics.task-tag} is
 * on. Meters are looked up once per tag combination and kept, so an event costs a map lookup and an increment.
 *
 * <p>The gauges read the engine, which needs this observer to be built: they find it once every singleton exists,
 * and read NaN before.
 */
final class AxMetrics implements EngineObserver, SmartInitializingSingleton {

    private static final double[] PERCENTILES = {0.5, 0.9, 0.99};

    private final MeterRegistry registry;
    private final ObjectProvider<AxEngine> engines;
    private final boolean taskTag;
    private final Map<Object, Counter> counters = new ConcurrentHashMap<>();
    private final Map<Object, Timer> timers = new ConcurrentHashMap<>();
    private final Set<String> gaugedGroups = ConcurrentHashMap.newKeySet();
    private volatile AxEngine engine;

    private record Key(String name, String a, String b, String c) {}

    AxMetrics(
            MeterRegistry registry,
            ObjectProvider<AxEngine> engines,
            boolean taskTag,
            Collection<String> groups,
            AdoptedTasks adopted) {
        this.registry = registry;
        this.engines = engines;
        this.taskTag = taskTag;
        Gauge.builder("ax.tasks.adopted", adopted, a -> a.all().size())
                .description("Tasks that AX runs for another scheduler: Spring @Scheduled methods, Quartz jobs")
                .register(registry);
        Gauge.builder("ax.wheel.entries", this, m -> m.read(e -> e.status().wheelSize()))
                .description("Entries in the time wheel: fire batches, retries waiting for their back-off, timeouts")
                .register(registry);
        Gauge.builder(
                        "ax.backlog.oldest",
                        this,
                        m -> m.read(e -> e.status().backlog().oldestAge().toMillis() / 1000.0))
                .description("Seconds the oldest instance due on this node and not started yet has waited; 0 when none")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder(
                        "ax.store.due",
                        this,
                        m -> m.read(
                                e -> e.status().dueInStore().map(d -> d.count()).orElse(0L)))
                .description(
                        "Instances the store held SCHEDULED and due at its last read (every few seconds), loaded by"
                                + " a node or not: the cluster's backlog")
                .register(registry);
        Gauge.builder(
                        "ax.store.due.oldest",
                        this,
                        m -> m.read(e -> e.status()
                                        .dueInStore()
                                        .map(io.ax.core.engine.DueInStore::oldestAge)
                                        .orElse(java.time.Duration.ZERO)
                                        .toMillis()
                                / 1000.0))
                .description("Seconds the earliest instance due in the store had waited at its last read; 0 when none")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("ax.lag", this, m -> m.read(e -> e.status().lag().toMillis() / 1000.0))
                .description("Seconds the oldest fire this node must start has waited, in its queue or in the store in"
                        + " a partition it owns; 0 while it keeps up")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder(
                        "ax.cluster.lag",
                        this,
                        m -> m.read(e -> e.status().oldestDueAge().toMillis() / 1000.0))
                .description(
                        "Seconds the oldest fire due in the cluster has waited (the store's oldest due instance, or"
                                + " one in this node's queue); 0 while the cluster keeps up")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("ax.leader", this, m -> m.read(e -> e.status().cluster().isLeader() ? 1 : 0))
                .description("1 while this node makes the trigger decisions, else 0")
                .register(registry);
        Gauge.builder(
                        "ax.cluster.leader",
                        this,
                        m -> m.read(e -> e.status().cluster().isLeader() ? 1 : 0))
                .description("1 while this node holds the leader lease, else 0")
                .register(registry);
        Gauge.builder(
                        "ax.store.outage",
                        this,
                        m -> m.read(e -> e.status()
                                .storeOutage()
                                .map(o -> java.time.Duration.between(o.since(), java.time.Instant.now())
                                                .toMillis()
                                        / 1000.0)
                                .orElse(0.0)))
                .description("Seconds since this node's store writes began to fail; 0 while they land")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder(
                        "ax.clock.offset",
                        this,
                        m -> m.read(e -> e.status()
                                .clusterTime()
                                .map(t -> t.offset().toNanos() / 1e9)
                                .orElse(0.0)))
                .description("How far the cluster's clock (Redis or the database) is ahead of this node's; fire times"
                        + " are decided on this node's clock plus this offset")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder(
                        "ax.clock.offset.uncertainty",
                        this,
                        m -> m.read(e -> e.status()
                                .clusterTime()
                                .map(t -> t.uncertainty().toNanos() / 1e9)
                                .orElse(0.0)))
                .description(
                        "How much larger the true clock offset may be than the one applied: a reading's round trip")
                .baseUnit("seconds")
                .register(registry);
        FunctionCounter.builder(
                        "ax.series.repaired", this, m -> m.read(e -> e.status().repairedSeries()))
                .description("Series the leader found without their next fire and repaired")
                .register(registry);
        FunctionCounter.builder(
                        "ax.inflight.repaired",
                        this,
                        m -> m.read(e -> e.status().repairedInFlight()))
                .description("This node's own instances in flight that it found in the store without anything here"
                        + " moving them on (an attempt it did not run, a retry not on its way), and moved on")
                .register(registry);
        FunctionCounter.builder(
                        "ax.events.dropped", this, m -> m.read(e -> e.status().droppedEvents()))
                .description("Events not told to the application's listeners because they fell behind")
                .register(registry);
        FunctionCounter.builder(
                        "ax.cluster.failovers",
                        this,
                        m -> m.read(e -> e.status().failovers()))
                .description("How often this node took the leader lease over")
                .register(registry);
        for (String reason : new String[] {"ack-timeout", "node-gone"}) {
            FunctionCounter.builder(
                            "ax.cluster.reassigned",
                            this,
                            m -> m.read(e -> e.status().reassigned().getOrDefault(reason, 0L)))
                    .description("Instances this node, as leader, took back from their node and assigned again")
                    .tag("reason", reason)
                    .register(registry);
        }
        Gauge.builder(
                        "ax.partitions.owned",
                        this,
                        m -> m.read(e -> e.status()
                                .partitions()
                                .map(p -> p.owned().size())
                                .orElse(0)))
                .description("Partitions this node owns: it plans and runs their work")
                .register(registry);
        FunctionCounter.builder(
                        "ax.partitions.moves",
                        this,
                        m -> m.read(e ->
                                e.status().partitions().map(p -> p.gained()).orElse(0L)))
                .description("Partitions this node took (when a node joined or died, or at its start)")
                .tag("direction", "gained")
                .register(registry);
        FunctionCounter.builder(
                        "ax.partitions.moves",
                        this,
                        m -> m.read(
                                e -> e.status().partitions().map(p -> p.lost()).orElse(0L)))
                .description("Partitions this node gave up or lost (handed to a node that joined, or taken)")
                .tag("direction", "lost")
                .register(registry);
        // series an operator alerts on exist from the start, at zero
        for (String direction : new String[] {"forwards", "backwards"}) {
            clockJumps(direction);
        }
        retentionDeleted();
        storeRegressions();
        storeRegressionAffected();
        for (String group : groups) {
            backlogGauge(group);
            for (DispatchOutcome outcome : DispatchOutcome.values()) {
                dispatchCounter(group, outcome);
            }
            receivedCounter(group);
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        engine = engines.getIfAvailable();
    }

    @Override
    public void dispatched(AxTask task, DispatchOutcome outcome) {
        backlogGauge(task.group());
        dispatchCounter(task.group(), outcome).increment();
    }

    @Override
    public void received(AxTask task) {
        receivedCounter(task.group()).increment();
    }

    @Override
    public void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {
        if (attempt == 1) {
            timer(
                            new Key("ax.trigger.lateness", task.group(), null, null),
                            () -> Timer.builder("ax.trigger.lateness")
                                    .description(
                                            "How late instances started: actual start minus scheduled time (first attempts)")
                                    .tag("group", task.group())
                                    .publishPercentiles(PERCENTILES)
                                    .register(registry))
                    .record(lateness);
        }
        timer(
                        new Key("ax.ack.latency", task.group(), null, null),
                        () -> Timer.builder("ax.ack.latency")
                                .description("From the hand-off of an instance to its pool to its start (RUNNING)")
                                .tag("group", task.group())
                                .register(registry))
                .record(ackLatency);
    }

    @Override
    public void acknowledged(AxTask task, Duration latency) {
        timer(
                        new Key("ax.cluster.ack.latency", task.group(), null, null),
                        () -> Timer.builder("ax.cluster.ack.latency")
                                .description("From the leader's assignment of an instance to its owner's"
                                        + " acknowledgement (DISPATCHED -> RUNNING)")
                                .tag("group", task.group())
                                .publishPercentiles(PERCENTILES)
                                .publishPercentileHistogram()
                                .register(registry))
                .record(latency);
    }

    @Override
    public void finished(AxTask task, InstanceState outcome, Duration took) {
        String name = taskName(task);
        String result = lower(outcome);
        timer(
                        new Key("ax.execution", task.group(), name, result),
                        () -> Timer.builder("ax.execution")
                                .description("How long attempts ran, by outcome: success, failed, timeout")
                                .tags(taskTags(task).and("outcome", result))
                                .register(registry))
                .record(took);
    }

    @Override
    public void retried(AxTask task) {
        perTask("ax.retries", "Failed or timed-out attempts that will be retried", task)
                .increment();
    }

    @Override
    public void takenOver(AxTask task) {
        perTask(
                        "ax.takeovers",
                        "Running attempts taken over from a node that crashed, froze, was cut off or restarted:"
                                + " not failures of the handler",
                        task)
                .increment();
    }

    @Override
    public void deadLettered(AxTask task) {
        perTask("ax.dead.letters", "Instances that went DEAD after their last attempt", task)
                .increment();
    }

    @Override
    public void clockJumped(AxClockJumpEvent event) {
        clockJumps(event.forwards() ? "forwards" : "backwards").increment();
    }

    @Override
    public void storeWentBack(io.ax.core.AxStoreRegressionEvent event) {
        storeRegressions().increment();
        storeRegressionAffected().increment(event.affectedInstances().size());
    }

    private Counter storeRegressions() {
        return counter(
                new Key("ax.store.regressions", null, null, null),
                () -> Counter.builder("ax.store.regressions")
                        .description("Times this node found its store gone back in time or become another server"
                                + " (commits it knew of missing): it fenced itself for a while")
                        .register(registry));
    }

    private Counter storeRegressionAffected() {
        return counter(
                new Key("ax.store.regression.affected", null, null, null),
                () -> Counter.builder("ax.store.regression.affected")
                        .description("Instances whose changes this node had committed and a store that went back in"
                                + " time no longer held")
                        .register(registry));
    }

    @Override
    public void retentionDeleted(int count) {
        retentionDeleted().increment(count);
    }

    private Counter retentionDeleted() {
        return counter(
                new Key("ax.retention.deleted", null, null, null),
                () -> Counter.builder("ax.retention.deleted")
                        .description("Finished instances deleted after their retention, with their audit rows and"
                                + " dead letters (counted on the leader, which deletes them)")
                        .register(registry));
    }

    private Counter clockJumps(String direction) {
        return counter(
                new Key("ax.clock.jumps", direction, null, null),
                () -> Counter.builder("ax.clock.jumps")
                        .description("Wall-clock jumps against the monotonic clock beyond the threshold")
                        .tag("direction", direction)
                        .register(registry));
    }

    private Counter dispatchCounter(String group, DispatchOutcome outcome) {
        String result = lower(outcome);
        return counter(
                new Key("ax.dispatch", group, result, null),
                () -> Counter.builder("ax.dispatch")
                        .description("Due instances by what dispatch did: dispatched, skipped, rejected (pool full)")
                        .tags("group", group, "outcome", result)
                        .register(registry));
    }

    private Counter receivedCounter(String group) {
        return counter(
                new Key("ax.node.received", group, null, null),
                () -> Counter.builder("ax.node.received")
                        .description("Instances this node took into its pools to run")
                        .tag("group", group)
                        .register(registry));
    }

    private Counter perTask(String meter, String description, AxTask task) {
        return counter(
                new Key(meter, task.group(), taskName(task), null),
                () -> Counter.builder(meter)
                        .description(description)
                        .tags(taskTags(task))
                        .register(registry));
    }

    private void backlogGauge(String group) {
        if (gaugedGroups.add(group)) {
            Gauge.builder(
                            "ax.backlog",
                            this,
                            m -> m.read(e -> e.status().backlog().of(group)))
                    .description(
                            "Instances due but not started on this node (waiting for a worker or a retry of dispatch)")
                    .tag("group", group)
                    .register(registry);
        }
    }

    private Tags taskTags(AxTask task) {
        Tags tags = Tags.of("group", task.group());
        return taskTag ? tags.and("task", task.name()) : tags;
    }

    private String taskName(AxTask task) {
        return taskTag ? task.name() : null;
    }

    private Counter counter(Key key, Supplier<Counter> create) {
        Counter c = counters.get(key);
        return c != null ? c : counters.computeIfAbsent(key, k -> create.get());
    }

    private Timer timer(Key key, Supplier<Timer> create) {
        Timer t = timers.get(key);
        return t != null ? t : timers.computeIfAbsent(key, k -> create.get());
    }

    private double read(ToDoubleFunction<AxEngine> value) {
        AxEngine e = engine;
        return e == null ? Double.NaN : value.applyAsDouble(e);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
