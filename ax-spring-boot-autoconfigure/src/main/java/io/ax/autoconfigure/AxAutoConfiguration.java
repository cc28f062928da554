package io.ax.autoconfigure;

import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.definitions.AxJobRegistrar;
import io.ax.autoconfigure.definitions.AxTaskProperties;
import io.ax.core.AxDeadLetterHandler;
import io.ax.core.AxExecutor;
import io.ax.core.AxIdempotency;
import io.ax.core.PayloadCodec;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.AttemptTracer;
import io.ax.core.engine.AttemptTransactions;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.AxEngineBuilder;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.RetentionSettings;
import io.ax.core.engine.TraceContextCapture;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.Permits;
import io.ax.core.wheel.AxTimerFactory;
import io.ax.executor.LocalMethodExecutor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import tools.jackson.databind.ObjectMapper;

/**
 * Wires the AX engine: store, executors, router, engine, its life cycle and the discovery of {@code @AxJob}
 * methods and {@code ax.tasks} entries. Dead letters go to the {@link AxDeadLetterHandler} (by default: a Spring
 * application event) and clock jumps become Spring application events; every {@code EngineObserver} bean hears
 * what the engine does. Every bean backs off when the application defines its own; {@code ax.enabled=false} turns
 * all off.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnBooleanProperty(name = "ax.enabled", matchIfMissing = true)
@EnableConfigurationProperties(AxProperties.class)
@Import(AxExecutorConfiguration.class)
public final class AxAutoConfiguration {

    /** The keys under ax. that no setting reads: one WARN at start-up, or a failure with ax.strict-properties. */
    @Bean
    static AxPropertiesCheck axPropertiesCheck(ConfigurableEnvironment environment) {
        boolean strict = Binder.get(environment)
                .bind("ax.strict-properties", Boolean.class)
                .orElse(false);
        return new AxPropertiesCheck(environment, strict);
    }

    @Bean
    @ConditionalOnMissingBean
    AxClock axClock() {
        return AxClock.system();
    }

    @Bean
    @ConditionalOnMissingBean
    InstanceStore axInstanceStore(AxProperties properties) {
        return new InMemoryInstanceStore(maxFinishedInstances(properties));
    }

    /** Without Redis: the store's table, or this JVM's keys for a store without one. */
    @Bean
    @ConditionalOnMissingBean
    AxIdempotency axIdempotency(InstanceStore store, AxClock clock) {
        return StoreDefaults.idempotency(store, clock);
    }

    @Bean
    @ConditionalOnMissingBean
    LocalMethodExecutor axLocalMethodExecutor() {
        return new LocalMethodExecutor();
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutorRouter axExecutorRouter(ObjectProvider<AxExecutor> executors) {
        return new ExecutorRouter(executors.orderedStream().toList());
    }

    /** The timer of the engine's due-soon work: the timing wheel, unless the application declares its own. */
    @Bean
    @ConditionalOnMissingBean
    AxTimerFactory axTimerFactory() {
        return AxTimerFactory.wheel();
    }

    @Bean
    @ConditionalOnMissingBean
    AxEngine axEngine(
            AxProperties properties,
            InstanceStore store,
            ExecutorRouter router,
            AxClock clock,
            ObjectProvider<PayloadCodec> payloadCodec,
            ApplicationEventPublisher events,
            AxDeadLetterHandler deadLetterHandler,
            AxTimerFactory timers,
            ObjectProvider<EngineObserver> observers,
            ObjectProvider<AttemptTracer> tracer,
            ObjectProvider<TraceContextCapture> traceCapture,
            ObjectProvider<LeaderLease> lease,
            ObjectProvider<NodeRegistry> registry,
            AxIdempotency idempotency,
            ObjectProvider<WakeUps> wakeUps,
            ObjectProvider<TimeReference> timeReference,
            ObjectProvider<Permits> permits,
            ObjectProvider<AttemptTransactions> transactions,
            ObjectProvider<AxTaskProperties> taskProperties,
            Environment environment) {
        // spring.threads.virtual.enabled on Java 21+ puts every pool on virtual threads unless a group says otherwise
        boolean springVirtual = Threading.VIRTUAL.isActive(environment);
        Map<String, PoolSettings> pools = new LinkedHashMap<>();
        properties.getPools().forEach((group, pool) -> pools.put(group, poolSettings(group, pool, springVirtual)));
        // each value is checked here, so that one the engine refuses is reported by its property, not its field
        AxProperties.Misfire misfire = properties.getMisfire();
        AxProperties.Prefetch prefetch = properties.getPrefetch();
        AxProperties.Clock clockSettings = properties.getClock();
        AxEngineBuilder builder = AxEngine.builder()
                .store(store)
                .router(router)
                .clock(clock)
                .nodeId(NodeIds.resolve(properties.getNodeId()))
                .tick(SettingChecks.positive(
                        "ax.wheel.tick", properties.getWheel().getTick(), "the resolution of the time wheel", "1ms"))
                .timers(timers)
                .pools(pools)
                .defaultPool(poolSettings("default", new AxProperties.Pool(), springVirtual))
                .shutdownAwait(SettingChecks.notNegative(
                        "ax.shutdown.await",
                        properties.getShutdown().getAwait(),
                        "how long a stop waits for running attempts before it interrupts them, 0s for not at all",
                        "10s"))
                .rejectionBackoff(SettingChecks.positive(
                        "ax.dispatch.rejection-backoff",
                        properties.getDispatch().getRejectionBackoff(),
                        "how long an instance rejected by a full pool waits before it is dispatched again",
                        "1s"))
                .misfireThreshold(SettingChecks.positive(
                        "ax.misfire.threshold",
                        misfire.getThreshold(),
                        "how late a recurring fire may be before it counts as missed",
                        "5s"))
                .maxCatchUp(SettingChecks.atLeast(
                        1,
                        "ax.misfire.max-catch-up",
                        misfire.getMaxCatchUp(),
                        "the most instances a FIRE_ALL misfire policy creates for the missed fire times of a task",
                        "100"))
                .prefetchWindow(SettingChecks.positive(
                        "ax.prefetch.window",
                        prefetch.getWindow(),
                        "how far ahead the wheel holds PERSISTENT instances",
                        "60s"))
                .prefetchPage(SettingChecks.atLeast(
                        1,
                        "ax.prefetch.page-size",
                        prefetch.getPageSize(),
                        "how many instances one read of the window returns at most",
                        "5000"))
                .prefetchLimit(SettingChecks.atLeast(
                        1,
                        "ax.prefetch.max-instances",
                        prefetch.getMaxInstances(),
                        "how many loaded instances the wheel holds at most",
                        "100000"))
                .memoryRetention(maxFinishedInstances(properties))
                .payloadCodec(payloadCodec.getIfAvailable(PayloadCodec::none))
                .maxPayloadSize((int) properties.getPayload().getMaxSize().toBytes())
                .clockJumpThreshold(SettingChecks.positive(
                        "ax.clock.jump-threshold",
                        clockSettings.getJumpThreshold(),
                        "the largest difference between how far the wall clock and the monotonic clock moved that is"
                                + " not a clock jump",
                        "500ms"))
                .clockPause(SettingChecks.notNegative(
                        "ax.clock.pause",
                        clockSettings.getPause(),
                        "how long trigger decisions wait after a clock jump, 0s for not at all",
                        "2s"))
                .onDeadLetter(event -> deadLetterHandler.handle(event.deadLetter()))
                .onClockJump(events::publishEvent)
                .onStoreRegression(events::publishEvent)
                .clusterSettings(clusterSettings(properties.getCluster()))
                .retention(retentionSettings(properties.getRetention()))
                .takeovers(SettingChecks.atLeast(
                        0,
                        "ax.retry.takeovers",
                        taskProperties
                                .getIfAvailable(AxTaskProperties::new)
                                .getRetry()
                                .getTakeovers(),
                        "how many times an attempt whose node died while it ran is run again",
                        "3"));
        // by default the store keeps the lease and registry; an application may put them elsewhere
        LeaderLease sharedLease = lease.getIfAvailable();
        NodeRegistry sharedRegistry = registry.getIfAvailable();
        if (properties.getCluster().getLeaseStore() == AxProperties.LeaseStore.REDIS && sharedLease == null) {
            throw new InvalidAxSettingsException(
                    "ax.cluster",
                    "ax.cluster.lease-store=redis needs Redis, and this application has no RedisConnectionFactory"
                            + " (or sets ax.redis.enabled=false)",
                    "Add spring-boot-starter-data-redis and spring.data.redis.* to use Redis for the lease, or remove"
                            + " ax.cluster.lease-store to keep it in the database.",
                    null);
        }
        if (sharedLease != null && sharedRegistry != null) {
            builder.cluster(sharedLease, sharedRegistry);
        }
        builder.idempotency(idempotency);
        wakeUps.ifAvailable(builder::wakeUps); // Redis pub/sub; else the store's own
        Permits elsewhere = permits.getIfAvailable(); // Redis with ax.redis.permits=true; else the store's own
        if (elsewhere != null) {
            builder.permits(elsewhere);
        } else if (environment.getProperty("ax.redis.permits", Boolean.class, false)) {
            throw new InvalidAxSettingsException(
                    "ax.redis",
                    "ax.redis.permits=true keeps the permits of cluster-wide limits on Redis, and this application has"
                            + " no RedisConnectionFactory (or sets ax.redis.enabled=false)",
                    "Add spring-boot-starter-data-redis and spring.data.redis.* to keep them on Redis, or remove"
                            + " ax.redis.permits to keep them in the database.",
                    null);
        }
        // the offset corrects the system clock; a clock of the application's own (a test's) is taken as it is
        if (clockSettings.isClusterOffset() && clock == AxClock.system()) {
            TimeReference reference = timeReference.getIfAvailable(() -> StoreDefaults.timeReference(store));
            if (reference != null) {
                builder.clusterTime(
                        reference,
                        SettingChecks.positive(
                                "ax.clock.offset-refresh",
                                clockSettings.getOffsetRefresh(),
                                "how often the offset from the cluster's clock is measured again",
                                "30s"));
            }
        }
        String recentCommits = properties.getShutdown().getRecentCommitsDir();
        if (recentCommits != null && !recentCommits.isBlank()) {
            builder.recentCommitsFolder(recentCommitsFolder(recentCommits.trim()));
        }
        observers.orderedStream().forEach(builder::observer);
        tracer.ifAvailable(builder::tracer);
        transactions.ifAvailable(builder::transactions);
        traceCapture.ifAvailable(builder::traceCapture);
        return builder.build();
    }

    /**
     * The folder of {@code ax.shutdown.recent-commits-dir}, created if missing: a node finds out at its start, not
     * at its stop, that it could not leave its recent commits there.
     */
    private static java.nio.file.Path recentCommitsFolder(String setting) {
        String fix = "Set ax.shutdown.recent-commits-dir to a folder that every node of this cluster can write (on"
                + " their host, or a volume all of them mount), or remove it.";
        java.nio.file.Path folder;
        try {
            folder = java.nio.file.Path.of(setting);
            java.nio.file.Files.createDirectories(folder);
        } catch (java.nio.file.InvalidPathException | java.io.IOException e) {
            throw new InvalidAxSettingsException(
                    "ax.shutdown",
                    "ax.shutdown.recent-commits-dir is not a folder this node can create: " + setting + " (" + e + ")",
                    fix,
                    e);
        }
        if (!java.nio.file.Files.isWritable(folder)) {
            throw new InvalidAxSettingsException(
                    "ax.shutdown",
                    "ax.shutdown.recent-commits-dir is not a folder this node can write: " + folder.toAbsolutePath(),
                    fix,
                    null);
        }
        return folder;
    }

    private static PoolSettings poolSettings(String group, AxProperties.Pool pool, boolean springVirtual) {
        String prefix = "ax.pools." + group;
        int threads = SettingChecks.atLeast(
                1, prefix + ".threads", pool.getThreads(), "the number of attempts the group may run at once", "4");
        int queueCapacity = SettingChecks.atLeast(
                0,
                prefix + ".queue-capacity",
                pool.getQueueCapacity(),
                "how many started instances may wait for a thread",
                "1000");
        if (Boolean.TRUE.equals(pool.getVirtualThreads()) && !PoolSettings.virtualThreadsAvailable()) {
            throw new InvalidAxSettingsException(
                    prefix + ".virtual-threads",
                    prefix + ".virtual-threads=true needs Java 21 or later; this application runs on Java "
                            + Runtime.version().feature(),
                    "Run the application on Java 21 or later, or remove " + prefix + ".virtual-threads (the group then"
                            + " runs on platform threads).",
                    null);
        }
        Duration overtake = SettingChecks.positive(
                prefix + ".overtake-limit",
                pool.getOvertakeLimit(),
                "how long a waiting instance may be overtaken by higher priorities",
                "30s");
        int clusterLimit = SettingChecks.atLeast(
                0,
                prefix + ".cluster-limit",
                pool.getClusterLimit(),
                "how many attempts of the group may run at once on all nodes together (0 for no such limit)",
                "0");
        io.ax.core.Rate rate = null;
        if (pool.getRate() != null && !pool.getRate().isBlank()) {
            try {
                rate = io.ax.core.Rate.parse(pool.getRate());
            } catch (IllegalArgumentException e) {
                throw new InvalidAxSettingsException(
                        prefix + ".rate",
                        prefix + ".rate: " + e.getMessage(),
                        "Write it as <count>/<window>, e.g. 100/1m, or remove it (no rate limit).",
                        null);
            }
        }
        boolean virtual = pool.getVirtualThreads() != null ? pool.getVirtualThreads() : springVirtual;
        return new PoolSettings(threads, queueCapacity, virtual, overtake, clusterLimit, rate);
    }

    /** Read by the in-memory store and, for MEMORY instances, by the engine on any store. */
    private static int maxFinishedInstances(AxProperties properties) {
        return SettingChecks.atLeast(
                1,
                "ax.memory.max-finished-instances",
                properties.getMemory().getMaxFinishedInstances(),
                "how many finished instances (with their audit trails) the in-memory store remembers",
                "10000");
    }

    private static ClusterSettings clusterSettings(AxProperties.Cluster c) {
        try {
            return new ClusterSettings(
                    c.getHeartbeat(),
                    c.getLease(),
                    c.getAckTimeout(),
                    c.getPollInterval(),
                    c.getVirtualNodes(),
                    c.getPartitions());
        } catch (IllegalArgumentException e) {
            throw new InvalidAxSettingsException(
                    "ax.cluster",
                    e.getMessage(),
                    "Set them so that ax.cluster.lease is more than twice ax.cluster.heartbeat, ax.cluster.ack-timeout"
                            + " is below the lease and ax.cluster.poll-interval is at most the ack timeout (the"
                            + " defaults: heartbeat 3s, lease 10s, ack-timeout 3s, poll-interval 500ms), and"
                            + " ax.cluster.partitions between 1 and 4096 (256).",
                    e);
        }
    }

    private static RetentionSettings retentionSettings(AxProperties.Retention r) {
        try {
            return new RetentionSettings(
                    r.isEnabled(), r.getFinished(), r.getDead(), r.getInterval(), r.getBatchSize());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidAxSettingsException(
                    "ax.retention",
                    e.getMessage(),
                    "Give ax.retention.finished, .dead and .interval positive durations (7d, 30d, 1m by default) and"
                            + " ax.retention.batch-size a number from 1 to 10000 (500), or set"
                            + " ax.retention.enabled=false to keep all history.",
                    e);
        }
    }

    /** Payload objects as JSON, through the application's Jackson mapper. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObjectMapper.class)
    static class JacksonPayloadConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(ObjectMapper.class)
        PayloadCodec axPayloadCodec(ObjectMapper mapper) {
            return new JacksonPayloadCodec(mapper);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    AxEngineLifecycle axEngineLifecycle(AxEngine engine) {
        return new AxEngineLifecycle(engine);
    }

    @Bean
    @ConditionalOnMissingBean
    AdoptedTasks axAdoptedTasks() {
        return new AdoptedTasks();
    }

    @Bean
    static AxJobRegistrar axJobRegistrar() {
        return new AxJobRegistrar();
    }
}
