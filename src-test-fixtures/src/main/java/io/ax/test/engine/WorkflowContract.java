package io.ax.test.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.WorkflowRun;
import io.ax.core.store.InstanceStore;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dependency workflows on a store: a step runs once per run after all its upstream tasks succeeded in that run, an
 * upstream that dies blocks its run (SKIPPED, with the reason) until a replay of it succeeds, and a run's state is
 * read back from the store by the next engine. A store's test extends this class and supplies a fresh, empty store;
 * a store that several engines can share as one cluster also supplies a second handle on the same tables.
 */
public abstract class WorkflowContract {

    private static final Duration BOUND = Duration.ofSeconds(30);
    /** Heartbeat 100 ms, lease 500 ms, acknowledgement within 300 ms, what other nodes hold followed every 50 ms. */
    private static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(300), Duration.ofMillis(50), 32);

    /** A fresh, empty store. */
    protected abstract InstanceStore newStore();

    /**
     * Another handle on the tables of the store {@link #newStore} returned last, for a second engine of the same
     * cluster; empty when the store cannot be shared between engines.
     */
    protected Optional<InstanceStore> sameStoreAgain() {
        return Optional.empty();
    }

    private final RecordingExecutor executor = new RecordingExecutor();
    private final List<AxEngine> engines = new ArrayList<>();

    private InstanceStore store;

    @BeforeEach
    void freshStore() {
        store = newStore();
    }

    @AfterEach
    void stopEngines() {
        engines.forEach(AxEngine::stop);
    }

    private AxEngine engine(String node, InstanceStore on, AxTask... tasks) {
        AxEngine e = AxEngine.builder()
                .store(on)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(node)
                .clusterSettings(FAST)
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        for (AxTask t : tasks) {
            e.register(t);
        }
        engines.add(e);
        e.start();
        return e;
    }

    private static AxTask root(String name) {
        return AxTask.builder(name)
                .target("test." + name)
                .timeout(Duration.ofSeconds(20))
                .build();
    }

    /** A root whose runs may overlap: a run started while the last one's root still runs is not SKIPPED. */
    private static AxTask overlappingRoot(String name) {
        return AxTask.builder(name)
                .target("test." + name)
                .timeout(Duration.ofSeconds(20))
                .concurrent(true)
                .build();
    }

    private static AxTask step(String name, String... upstream) {
        return AxTask.builder(name)
                .target("test." + name)
                .timeout(Duration.ofSeconds(20))
                .trigger(DependencyTrigger.after(upstream))
                .build();
    }

    /** Each listed task succeeds with a result naming it. */
    private void answering(String... tasks) {
        for (String t : tasks) {
            executor.when(t, ctx -> AxResult.success("result of " + t));
        }
    }

    private List<AxContext> runsOf(String task, String runId) {
        return executor.runsOf(task).stream()
                .filter(c -> runId.equals(c.runId()))
                .toList();
    }

    private WorkflowRun run(AxEngine e, String root, String runId) {
        return e.recentRuns(root, 20).stream()
                .filter(r -> r.runId().equals(runId))
                .findFirst()
                .orElseThrow();
    }

    private void awaitRunState(AxEngine e, String root, String runId, String state) {
        await().atMost(BOUND)
                .untilAsserted(() -> assertThat(run(e, root, runId).state()).isEqualTo(state));
    }

    @Test
    void aDiamondRunsEachStepOnceAfterAllItsUpstreamTasksSucceeded() {
        answering("extract", "clean", "enrich", "load");
        AxEngine e = engine(
                "node-w",
                store,
                root("extract"),
                step("clean", "extract"),
                step("enrich", "extract"),
                step("load", "clean", "enrich"));

        String runId = e.triggerNow("extract");
        awaitRunState(e, "extract", runId, "succeeded");

        for (String task : List.of("extract", "clean", "enrich", "load")) {
            assertThat(runsOf(task, runId)).as(task).hasSize(1);
        }
        AxContext load = runsOf("load", runId).get(0);
        Instant loadStarted = store.auditTrail(load.instanceId()).stream()
                .filter(a -> a.to() == InstanceState.RUNNING)
                .map(AuditEntry::at)
                .findFirst()
                .orElseThrow();
        for (String upstream : List.of("clean", "enrich")) {
            Instant upstreamSucceeded = store
                    .auditTrail(runsOf(upstream, runId).get(0).instanceId())
                    .stream()
                    .filter(a -> a.to() == InstanceState.SUCCESS)
                    .map(AuditEntry::at)
                    .findFirst()
                    .orElseThrow();
            assertThat(loadStarted).as("load after " + upstream).isAfterOrEqualTo(upstreamSucceeded);
        }
        assertThat(load.upstreamResults())
                .containsExactlyInAnyOrderEntriesOf(Map.of("clean", "result of clean", "enrich", "result of enrich"));
        assertThat(store.find(load.instanceId()).orElseThrow())
                .satisfies(i -> assertThat(i.origin()).isEqualTo(InstanceOrigin.WORKFLOW))
                .satisfies(i -> assertThat(i.key()).isEqualTo(TaskInstance.runKey(runId)));
        assertThat(store.auditTrail(load.instanceId()).get(0).reason())
                .contains("workflow run " + runId)
                .contains("clean, enrich succeeded");
        assertThat(runsOf("extract", runId).get(0).runId()).isEqualTo(runId);
        assertThat(store.auditTrail(runId).get(0).reason()).endsWith("; starts workflow run " + runId);
    }

    @Test
    void runsFanOutAndInEachUnderItsOwnRunId() {
        answering("split", "part-1", "part-2", "part-3", "join");
        AxEngine e = engine(
                "node-w",
                store,
                overlappingRoot("split"),
                step("part-1", "split"),
                step("part-2", "split"),
                step("part-3", "split"),
                step("join", "part-1", "part-2", "part-3"));

        String first = e.triggerNow("split");
        String second = e.triggerNow("split");
        awaitRunState(e, "split", first, "succeeded");
        awaitRunState(e, "split", second, "succeeded");

        for (String runId : List.of(first, second)) {
            for (String task : List.of("part-1", "part-2", "part-3", "join")) {
                assertThat(runsOf(task, runId)).as(task + " in " + runId).hasSize(1);
            }
        }
        assertThat(executor.runsOf("join")).hasSize(2);
        assertThat(e.workflowGraph().workflows())
                .singleElement()
                .satisfies(w -> assertThat(w.root()).isEqualTo("split"))
                .satisfies(w -> assertThat(w.tasks()).containsExactly("split", "part-1", "part-2", "part-3", "join"))
                .satisfies(w -> assertThat(w.edges()).hasSize(6));
    }

    @Test
    void anUpstreamThatDiesBlocksItsRunUntilItsReplaySucceeds() {
        AtomicBoolean broken = new AtomicBoolean(true);
        answering("fetch", "publish", "notify");
        executor.when(
                "transform",
                ctx -> broken.get() ? AxResult.failure("source file is malformed") : AxResult.success("transformed"));
        AxEngine e = engine(
                "node-w",
                store,
                root("fetch"),
                step("transform", "fetch"),
                step("publish", "transform"),
                step("notify", "publish"));

        String runId = e.triggerNow("fetch");
        awaitRunState(e, "fetch", runId, "blocked");
        String dead = runsOf("transform", runId).get(0).instanceId();
        await().atMost(BOUND)
                .untilAsserted(() -> assertThat(run(e, "fetch", runId).steps())
                        .containsEntry("transform", InstanceState.DEAD)
                        .containsEntry("publish", InstanceState.SKIPPED)
                        .containsEntry("notify", InstanceState.SKIPPED));
        TaskInstance blocked =
                store.findByKey("publish", TaskInstance.blockedKey(runId)).orElseThrow();
        assertThat(store.auditTrail(blocked.id()))
                .last()
                .satisfies(a -> assertThat(a.to()).isEqualTo(InstanceState.SKIPPED))
                .satisfies(a -> assertThat(a.reason())
                        .contains("upstream 'transform' instance " + dead + " ended DEAD")
                        .contains(runId));
        assertThat(executor.runsOf("publish")).isEmpty();

        broken.set(false);
        e.replay(dead);

        // the SKIPPED records stay; the steps themselves run now, under their own key
        awaitRunState(e, "fetch", runId, "succeeded");
        assertThat(runsOf("notify", runId)).hasSize(1);
        assertThat(runsOf("publish", runId)).hasSize(1);
        assertThat(runsOf("publish", runId).get(0).upstreamResults()).containsEntry("transform", "transformed");
    }

    @Test
    void aStepWhoseUpstreamEndedWhileNoEngineLedIsCreatedByTheNextLeader() {
        answering("nightly", "report");
        // the root ran and succeeded, and then the engine went away before its run went on: the store holds it all
        AxEngine before = engine("node-w", store, root("nightly"));
        String runId = before.triggerNow("nightly");
        await().atMost(BOUND)
                .until(() -> store.find(runId)
                        .map(i -> i.state() == InstanceState.SUCCESS)
                        .orElse(false));
        before.stop();
        engines.remove(before);

        AxEngine after = engine("node-w", store, root("nightly"), step("report", "nightly"));

        awaitRunState(after, "nightly", runId, "succeeded");
        assertThat(runsOf("report", runId)).hasSize(1);
    }

    @Test
    void twoEnginesOnOneStoreRunEachStepOncePerRun() {
        Optional<InstanceStore> second = sameStoreAgain();
        assumeThat(second).as("a store that engines share as one cluster").isPresent();
        answering("a", "b", "c", "d");
        AxTask[] tasks = {overlappingRoot("a"), step("b", "a"), step("c", "a"), step("d", "b", "c")};
        AxEngine n1 = engine("n1", store, tasks);
        AxEngine n2 = engine("n2", second.get(), tasks);
        await().atMost(BOUND)
                .until(() -> n1.status().cluster().liveNodes().size() == 2
                        && n2.status().cluster().liveNodes().size() == 2);

        // runs, from either node, until steps ran on both: where a run's steps run is the node that leads, or the
        // one that owns the run's partition; 64 runs all on one node would be a chance of 2^-63
        List<String> runs = new ArrayList<>();
        Set<String> nodes = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 64 && (i < 10 || nodes.size() < 2); i++) {
            String runId = (i % 2 == 0 ? n1 : n2).triggerNow("a");
            runs.add(runId);
            awaitRunState(n1, "a", runId, "succeeded");
            for (String task : List.of("b", "c", "d")) {
                List<AxContext> attempts = runsOf(task, runId);
                assertThat(attempts).as(task + " in " + runId).hasSize(1);
                nodes.add(attempts.get(0).nodeId());
            }
        }
        assertThat(nodes).as("steps ran on both nodes").containsExactlyInAnyOrder("n1", "n2");
        assertThat(executor.runsOf("d").stream().map(AxContext::runId).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(runs);
    }
}
