package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxStoreRegressionEvent;
import io.ax.core.AxTask;
import io.ax.core.ScheduleRequest;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.pg.PostgresPair;
import io.ax.test.pg.PostgresPair.Replication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Nodes on pgjdbc's multi-host URL over a private primary and its streaming standby ({@link PostgresPair}), through
 * real failovers: a caught-up one (synchronous replication) is seen and loses nothing; one to a standby that missed
 * the last commits is found by the nodes, which say so and fence themselves, and the cluster runs again by itself;
 * an old primary started again beside the promoted one is found by a node whose connections reach it, while a node
 * that starts fresh on it cannot know (what the guide says).
 */
class PostgresFailoverTest {

    private static final String PREFIX = "axfo_";
    /** Heartbeat 300 ms, lease 2 s: a failover is noticed within a few heartbeats. */
    private static final ClusterSettings SETTINGS = new ClusterSettings(
                    Duration.ofMillis(300), Duration.ofSeconds(2), Duration.ofMillis(1_000), Duration.ofMillis(200), 8)
            .withPartitions(16);

    private static final int TASKS = 8;
    private static final Duration PERIOD = Duration.ofMillis(100);
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final List<Node> nodes = new ArrayList<>();
    private final ConcurrentLinkedQueue<Long> runs = new ConcurrentLinkedQueue<>();
    private final List<AxStoreRegressionEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger observed = new AtomicInteger();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private PostgresPair pair;
    /** Where the nodes leave their recent commits as they stop; none unless a test sets it. */
    private Path recentCommits;

    private record Node(String id, HikariDataSource pool, AxEngine engine) {}

    @BeforeEach
    void watchTheEngineLog() {
        log.start();
        ((Logger) LoggerFactory.getLogger(AxEngine.class)).addAppender(log);
        quiet("com.zaxxer.hikari", Level.ERROR);
        quiet("org.postgresql", Level.ERROR);
        quiet("io.ax.instances", Level.WARN);
    }

    @AfterEach
    void stopEverything() {
        for (Node n : nodes) {
            n.engine().stop();
            n.pool().close();
        }
        ((Logger) LoggerFactory.getLogger(AxEngine.class)).detachAppender(log);
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void aCaughtUpFailoverIsSeenAndLosesNothingAndAnOldPrimaryBackIsFoundByANodeThatReachesIt() {
        pair = PostgresPair.start(Replication.SYNCHRONOUS);
        Node n1 = start("n1");
        Node n2 = start("n2");
        awaitRuns(20);

        pair.failover();
        long failedOver = System.nanoTime();

        await("both nodes saw the failover")
                .atMost(BOUND)
                .until(() -> n1.engine().status().lastFailover().isPresent()
                        && n2.engine().status().lastFailover().isPresent());
        awaitRunsSince(failedOver, 20);
        assertThat(n1.engine().status().storeRegression()).isEmpty();
        assertThat(n2.engine().status().storeRegression()).isEmpty();
        assertThat(events).isEmpty();
        assertThat(errors()).isEmpty();

        // the old primary comes back as a primary, first in the URL: n1's new connections go to it
        pair.startOldPrimary();
        // starts fresh on the old primary alone: it has no history to compare with (on the multi-host URL, a
        // connection opened while the old primary still starts would reach the new one, and n3 would know)
        Node n3 = start("n3", pair.jdbcUrl(pair.firstPrimaryPort()));
        // n1 finds it once one of its connections reaches it: a connection busy at an eviction stays where it is until
        // it is returned, and pgjdbc tries a host it saw down again only after hostRecheckSeconds, so evict again
        await("n1 found the old primary")
                .atMost(BOUND)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    n1.pool().getHikariPoolMXBean().softEvictConnections();
                    return n1.engine().status().storeRegression().isPresent();
                });
        assertThat(n1.engine().status().storeRegression().get().findings())
                .anySatisfy(f -> assertThat(f).contains("timeline went back from 2 to 1"));
        assertThat(n3.engine().status().storeRegression())
                .as("a node that starts on a stale primary cannot tell: only the HA tool's fencing stops it")
                .isEmpty();
    }

    @Test
    void aFailoverThatLosesCommitsIsFoundReportedAndTheClusterRunsAgain() {
        pair = PostgresPair.start(Replication.ASYNCHRONOUS);
        Node n1 = start("n1");
        Node n2 = start("n2");
        awaitRuns(20);

        pair.detachStandby();
        long detached = System.nanoTime();
        awaitRunsSince(detached, 20); // these commits, and a few heartbeats, the standby never gets
        // acknowledged to a caller, as a web request's delayed task would be, and lost with the rest
        List<String> scheduled = closeOrders(n1);
        await().atMost(BOUND)
                .until(() ->
                        System.nanoTime() - detached > Duration.ofSeconds(1).toNanos());
        pair.failover();
        long failedOver = System.nanoTime();

        await("a node found the loss")
                .atMost(BOUND)
                .until(() -> nodes.stream().anyMatch(n -> n.engine().status().fencedByStoreRegression()));
        long foundMillis = (System.nanoTime() - failedOver) / 1_000_000;
        Node finder = nodes.stream()
                .filter(n -> n.engine().status().storeRegression().isPresent())
                .findFirst()
                .orElseThrow();
        AxStoreRegressionEvent report =
                finder.engine().status().storeRegression().orElseThrow();
        assertThat(report.findings()).anySatisfy(f -> assertThat(f).contains("went back"));
        assertThat(report.affectedInstances())
                .as("instances whose changes the node committed in the lost window")
                .isNotEmpty();
        await().atMost(BOUND).until(() -> !events.isEmpty() && observed.get() > 0);
        assertThat(events.get(0).affectedInstances()).isNotEmpty();
        await("the delayed tasks the store lost are named")
                .atMost(BOUND)
                .untilAsserted(() -> assertThat(events.stream()
                                .flatMap(e -> e.affectedInstances().stream())
                                .toList())
                        .containsAll(scheduled));
        assertThat(errors()).anySatisfy(e -> assertThat(e).contains("went back in time"));

        // the cluster goes on by itself: the fence ends, the partitions are owned again, the tasks run again
        await("every node takes part again")
                .atMost(BOUND)
                .until(() -> nodes.stream().noneMatch(n -> n.engine().status().fencedByStoreRegression()));
        long back = System.nanoTime();
        awaitRunsSince(back, 20);
        await("every partition owned again")
                .atMost(BOUND)
                .until(() -> nodes.stream()
                                .mapToInt(n -> n.engine()
                                        .status()
                                        .partitions()
                                        .map(p -> p.owned().size())
                                        .orElse(0))
                                .sum()
                        == SETTINGS.partitions());
        long ownedAgainMillis = (System.nanoTime() - failedOver) / 1_000_000;
        System.out.println("Loss found " + foundMillis + " ms after the primary was stopped; every partition owned"
                + " again after " + ownedAgainMillis + " ms; findings " + report.findings() + "; "
                + report.affectedInstances().size() + " instance(s) affected");
    }

    @Test
    void aFailoverJustAfterANodeStoppedIsNamedByTheNodeThatTookWhatItLeft(@TempDir Path folder) throws Exception {
        recentCommits = folder;
        pair = PostgresPair.start(Replication.ASYNCHRONOUS);
        Node n1 = start("n1");
        Node n2 = start("n2");
        awaitRuns(20);

        pair.detachStandby();
        // acknowledged by n1, which then stops (a rolling restart): its check at the stop reads a primary that
        // holds them all, and the failover that loses them comes after it is gone
        List<String> scheduled = closeOrders(n1);
        n1.engine().stop();
        assertThat(events).as("nothing was missing as n1 stopped").isEmpty();
        await("n2 took what n1 left").atMost(BOUND).until(() -> {
            try (var files = Files.list(folder)) {
                return files.noneMatch(f -> f.getFileName().toString().endsWith(".commits"));
            }
        });
        pair.failover();

        awaitNamedBy("n2", scheduled);
    }

    @Test
    void aFailoverJustAfterANodeCrashedIsNamedByTheNodeThatTookTheFileItKept(
            @TempDir Path crashedOnes, @TempDir Path shared) throws Exception {
        pair = PostgresPair.start(Replication.ASYNCHRONOUS);
        recentCommits = crashedOnes; // n1's own folder: what its graceful stop below leaves, no one takes
        Node n1 = start("n1");
        recentCommits = shared;
        Node n2 = start("n2");
        awaitRuns(20);

        pair.detachStandby();
        List<String> scheduled = closeOrders(n1);
        // what a kill -9 of n1 would leave: the file it keeps, as it last wrote it, unwritten from then on
        Path kept = await("n1 keeps its recent commits in a file")
                .atMost(BOUND)
                .until(() -> keptFileWith(crashedOnes, scheduled), java.util.Objects::nonNull);
        Path left = shared.resolve(kept.getFileName());
        Files.copy(kept, left);
        Files.setLastModifiedTime(
                left,
                java.nio.file.attribute.FileTime.from(
                        Files.getLastModifiedTime(left).toInstant().minusSeconds(10)));
        n1.engine().stop();
        await("n2 took the file n1 stopped writing").atMost(BOUND).until(() -> !Files.exists(left));
        pair.failover();

        awaitNamedBy("n2", scheduled);
    }

    /** Five delayed tasks acknowledged by {@code node}, as a web request's would be: their ids. */
    private static List<String> closeOrders(Node node) {
        return IntStream.range(0, 5)
                .mapToObj(i ->
                        node.engine().schedule(ScheduleRequest.of("close-order").after(Duration.ofMinutes(10))))
                .toList();
    }

    /** Waits until the events of {@code node} have named every one of {@code ids}. */
    private void awaitNamedBy(String node, List<String> ids) {
        await(node + " names the delayed tasks the store lost")
                .atMost(BOUND)
                .untilAsserted(() -> assertThat(events.stream()
                                .filter(e -> e.nodeId().equals(node))
                                .flatMap(e -> e.affectedInstances().stream())
                                .toList())
                        .containsAll(ids));
    }

    /** The file a node keeps in {@code folder} once it names every one of {@code ids}; null before. */
    private static Path keptFileWith(Path folder, List<String> ids) throws java.io.IOException {
        try (var files = Files.list(folder)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".live")
                            && !p.getFileName().toString().startsWith("."))
                    .toList()) {
                try {
                    String text = Files.readString(f);
                    if (ids.stream().allMatch(text::contains)) {
                        return f;
                    }
                } catch (java.nio.file.NoSuchFileException replaced) {
                    // written anew meanwhile: the next look reads it
                }
            }
        }
        return null;
    }

    private Node start(String id) {
        return start(id, pair.jdbcUrl(Duration.ofSeconds(1)));
    }

    private Node start(String id, String url) {
        if (nodes.isEmpty()) {
            HikariDataSource first = pool("migrate", url);
            try {
                JdbcSchema.migrate(first, PREFIX);
            } finally {
                first.close();
            }
        }
        HikariDataSource pool = pool(id, url);
        var builder = AxEngine.builder();
        if (recentCommits != null) {
            builder.recentCommitsFolder(recentCommits);
        }
        AxEngine engine = builder.store(new JdbcInstanceStore(pool, PREFIX, Duration.ofSeconds(3)))
                .router(new ExecutorRouter(List.of(new Counting())))
                .nodeId(id)
                .clusterSettings(SETTINGS)
                .defaultPool(new PoolSettings(4, 1_000))
                .shutdownAwait(Duration.ofSeconds(2))
                .onStoreRegression(events::add)
                .observer(new EngineObserver() {
                    @Override
                    public void storeWentBack(AxStoreRegressionEvent event) {
                        observed.incrementAndGet();
                    }
                })
                .build();
        IntStream.range(0, TASKS)
                .mapToObj(i -> AxTask.builder("tick-" + i)
                        .target("test.tick")
                        .trigger(IntervalTrigger.fixedRate(PERIOD, Duration.ofMillis(i * 10L)))
                        .build())
                .forEach(engine::register);
        engine.register(AxTask.builder("close-order").target("test.close").build());
        engine.start();
        Node node = new Node(id, pool, engine);
        nodes.add(node);
        return node;
    }

    private HikariDataSource pool(String id, String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(pair.user());
        config.setPoolName("ax-failover-" + id);
        config.setMaximumPoolSize(6);
        config.setConnectionTimeout(1_000);
        config.setValidationTimeout(500);
        return new HikariDataSource(config);
    }

    /** Counts the attempts run, with the time each started. */
    private final class Counting implements AxExecutor {
        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            runs.add(System.nanoTime());
            return AxResult.success();
        }
    }

    private void awaitRuns(int atLeast) {
        awaitRunsSince(Long.MIN_VALUE, atLeast);
    }

    private void awaitRunsSince(long nanos, int atLeast) {
        await(atLeast + " runs")
                .atMost(BOUND)
                .until(() -> runs.stream()
                                .filter(t -> t - nanos >= 0 || nanos == Long.MIN_VALUE)
                                .count()
                        >= atLeast);
    }

    private List<String> errors() {
        return log.list.stream()
                .filter(e -> e.getLevel() == Level.ERROR)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    private static void quiet(String logger, Level level) {
        ((Logger) LoggerFactory.getLogger(logger)).setLevel(level);
    }
}
