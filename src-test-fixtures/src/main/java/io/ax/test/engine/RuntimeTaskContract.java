package io.ax.test.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.InvalidTaskException;
import io.ax.core.TaskDefinition;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownTaskException;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.DefinitionChange;
import io.ax.core.store.InstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tasks registered at runtime on a store: registered, updated and unregistered, each surviving a restart, audited,
 * picked up by a second engine on the same store within a heartbeat, and never taking the name of a task defined in
 * code. A store's test extends this class, supplies a fresh, empty store and another handle on its tables.
 */
public abstract class RuntimeTaskContract {

    private static final Duration BOUND = Duration.ofSeconds(30);
    /** Heartbeat 100 ms, lease 500 ms, acknowledgement within 300 ms, what other nodes hold followed every 50 ms. */
    private static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(300), Duration.ofMillis(50), 32);

    private static final CronTrigger FAR_AWAY = CronTrigger.of("0 0 0 1 1 ? 2099", ZoneOffset.UTC);

    /** A fresh, empty store. */
    protected abstract InstanceStore newStore();

    /** Another handle on the tables of the store {@link #newStore} returned last: what a restarted node opens. */
    protected abstract InstanceStore sameStoreAgain();

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

    private AxEngine engine(String node, InstanceStore on, AxTask... inCode) {
        AxEngine e = AxEngine.builder()
                .store(on)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(node)
                .clusterSettings(FAST)
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        for (AxTask t : inCode) {
            e.register(t);
        }
        engines.add(e);
        e.start();
        return e;
    }

    /** Stops the engine, as a node going away; the next one starts from the store. */
    private void stop(AxEngine e) {
        e.stop();
        engines.remove(e);
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private static AxTask every(String name, Duration period) {
        return task(name)
                .trigger(IntervalTrigger.fixedRate(period, Duration.ZERO))
                .params(Map.of("region", "eu = west"))
                .build();
    }

    @Test
    void aRegisteredTaskRunsAndIsLoadedAgainAfterARestart() {
        AxEngine first = engine("node-r", store);
        TaskDefinition stored = first.register(TaskDefinition.of(every("pulse", Duration.ofMillis(100))));

        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.updatedBy()).isEqualTo("node-r");
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= 2);
        assertThat(executor.runsOf("pulse").get(0).params()).containsEntry("region", "eu = west");
        stop(first);

        int before = executor.runsOf("pulse").size();
        AxEngine second = engine("node-r", sameStoreAgain());
        assertThat(second.task("pulse")).contains(every("pulse", Duration.ofMillis(100)));
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= before + 2);
        assertThat(second.list())
                .singleElement()
                .satisfies(d -> assertThat(d.task()).isEqualTo(every("pulse", Duration.ofMillis(100))))
                .satisfies(d -> assertThat(d.version()).isEqualTo(1));
    }

    @Test
    void anUpdateCancelsTheOldDefinitionsFireAndTakesEffectFromTheNextFireTime() {
        AxEngine e = engine("node-r", store);
        e.register(TaskDefinition.of(task("report").trigger(FAR_AWAY).build()));
        TaskInstance farFire = await().atMost(BOUND)
                .until(
                        () -> store.findByTask("report", 5).stream()
                                .filter(i -> i.origin() == InstanceOrigin.SERIES)
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();

        TaskDefinition updated = e.update(TaskDefinition.of(every("report", Duration.ofMillis(100))));

        assertThat(updated.version()).isEqualTo(2);
        await().atMost(BOUND).until(() -> executor.runsOf("report").size() >= 2);
        assertThat(store.find(farFire.id()).orElseThrow().state()).isEqualTo(InstanceState.CANCELLED);
        assertThat(store.auditTrail(farFire.id()))
                .last()
                .satisfies(a -> assertThat(a.reason()).contains("definition updated to version 2"));
        assertThat(store.definitionHistory("report"))
                .extracting(DefinitionChange::action, DefinitionChange::version)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("REGISTERED", 1L),
                        org.assertj.core.groups.Tuple.tuple("UPDATED", 2L));
        stop(e);

        AxEngine again = engine("node-r", sameStoreAgain());
        assertThat(again.task("report")).contains(every("report", Duration.ofMillis(100)));
        assertThat(again.list())
                .singleElement()
                .satisfies(d -> assertThat(d.version()).isEqualTo(2));
    }

    @Test
    void anUnregisteredTaskStopsAndStaysGoneAfterARestart() {
        AxEngine e = engine("node-r", store);
        e.register(TaskDefinition.of(task("report").trigger(FAR_AWAY).build()));
        await().atMost(BOUND).until(() -> !store.findByTask("report", 5).isEmpty());

        e.unregister("report");

        assertThat(e.task("report")).isEmpty();
        assertThat(store.findByTask("report", 5))
                .allSatisfy(i -> assertThat(i.state()).isEqualTo(InstanceState.CANCELLED));
        assertThat(e.list()).isEmpty();
        assertThat(store.definitionHistory("report"))
                .extracting(DefinitionChange::action)
                .containsExactly("REGISTERED", "UNREGISTERED");
        assertThatThrownBy(() -> e.unregister("report")).isInstanceOf(UnknownTaskException.class);
        stop(e);

        AxEngine again = engine("node-r", sameStoreAgain());
        assertThat(again.task("report")).isEmpty();
    }

    @Test
    void aTaskDefinedInCodeCannotBeTakenOrChangedAtRuntime() {
        AxEngine e = engine("node-r", store, task("coded").build());

        assertThatThrownBy(() -> e.register(TaskDefinition.of(every("coded", Duration.ofSeconds(1)))))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("Task 'coded' is defined in code")
                .hasMessageContaining("cannot take its name or change it");
        assertThatThrownBy(() -> e.update(TaskDefinition.of(every("coded", Duration.ofSeconds(1)))))
                .hasMessageContaining("Task 'coded' is defined in code");
        assertThatThrownBy(() -> e.unregister("coded")).hasMessageContaining("Task 'coded' is defined in code");
        assertThat(e.list()).isEmpty();

        e.register(TaskDefinition.of(every("pulse", Duration.ofSeconds(1))));
        assertThatThrownBy(() -> e.register(TaskDefinition.of(every("pulse", Duration.ofSeconds(2)))))
                .hasMessageContaining("registered at runtime already; update it instead");
    }

    @Test
    void aDefinitionNoExecutorRunsOrThatBreaksAWorkflowIsRefusedAndNotStored() {
        AxEngine e = engine("node-r", store, task("root").build());

        assertThatThrownBy(() -> e.register(
                        TaskDefinition.of(task("pigeon").type("PIGEON").build())))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("PIGEON");
        assertThatThrownBy(() -> e.register(TaskDefinition.of(task("orphan")
                        .trigger(DependencyTrigger.after("missing"))
                        .build())))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("upstream task 'missing' does not exist");
        assertThat(e.list()).isEmpty();
        assertThat(store.findDefinitions()).isEmpty();

        e.register(TaskDefinition.of(
                task("step").trigger(DependencyTrigger.after("root")).build()));
        String runId = e.triggerNow("root");
        await().atMost(BOUND).until(() -> executor.runsOf("step").stream().anyMatch(c -> runId.equals(c.runId())));
    }

    @Test
    void anotherEngineOnTheSameStorePicksChangesUpWithinAHeartbeat() {
        AxEngine n1 = engine("n1", store);
        AxEngine n2 = engine("n2", sameStoreAgain());

        n1.register(TaskDefinition.of(task("report").trigger(FAR_AWAY).build()));
        await().atMost(BOUND).until(() -> n2.task("report").isPresent());

        n1.update(TaskDefinition.of(every("report", Duration.ofSeconds(5))));
        await().atMost(BOUND)
                .until(() -> n2.task("report")
                        .map(t -> t.trigger() instanceof IntervalTrigger)
                        .orElse(false));

        n2.unregister("report");
        await().atMost(BOUND).until(() -> n1.task("report").isEmpty());
    }
}
