package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InvalidTaskException;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.test.RecordingExecutor;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkflowGraphTest {

    private static AxTask root(String name) {
        return AxTask.builder(name).target("t." + name).build();
    }

    private static AxTask step(String name, String... upstream) {
        return AxTask.builder(name)
                .target("t." + name)
                .trigger(DependencyTrigger.after(upstream))
                .build();
    }

    @Test
    void namesTheCycleAlongItsEdges() {
        assertThatThrownBy(() -> WorkflowGraph.of(
                        List.of(root("start"), step("a", "start", "c"), step("b", "a"), step("c", "b"))))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("attribute 'dependsOn'")
                .hasMessageContaining("the workflow has a cycle: a -> b -> c -> a");
    }

    @Test
    void namesATaskThatDependsOnItself() {
        assertThatThrownBy(() -> WorkflowGraph.of(List.of(root("r"), step("loop", "r", "loop"))))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("Task 'loop'")
                .hasMessageContaining("task 'loop' depends on itself");
    }

    @Test
    void namesAnUnknownUpstreamTask() {
        assertThatThrownBy(() -> WorkflowGraph.of(List.of(root("extract"), step("load", "extract", "transfrom"))))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("Task 'load'")
                .hasMessageContaining("upstream task 'transfrom' does not exist (known tasks: extract, load)");
    }

    @Test
    void refusesAWorkflowWithTwoRoots() {
        assertThatThrownBy(() -> WorkflowGraph.of(List.of(root("a"), root("b"), step("join", "a", "b"))))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("has 2 root tasks (a, b); a run starts at one root");
    }

    @Test
    void refusesAMemoryTaskInAWorkflow() {
        AxTask memory = AxTask.builder("m")
                .target("t.m")
                .durability(Durability.MEMORY)
                .trigger(DependencyTrigger.after("r"))
                .build();
        assertThatThrownBy(() -> WorkflowGraph.of(List.of(root("r"), memory)))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("durability MEMORY");
    }

    @Test
    void ordersADiamondUpstreamFirstAndKnowsItsRoot() {
        WorkflowGraph g = WorkflowGraph.of(
                List.of(root("lonely"), step("d", "b", "c"), step("c", "a"), step("b", "a"), root("a")));
        assertThat(g.workflows()).singleElement().satisfies(w -> {
            assertThat(w.root()).isEqualTo("a");
            assertThat(w.tasks()).containsExactly("a", "b", "c", "d");
            assertThat(w.edges())
                    .containsExactlyInAnyOrder(
                            new WorkflowGraph.Edge("a", "b"),
                            new WorkflowGraph.Edge("a", "c"),
                            new WorkflowGraph.Edge("b", "d"),
                            new WorkflowGraph.Edge("c", "d"));
        });
        assertThat(g.isRoot("a")).isTrue();
        assertThat(g.isRoot("b")).isFalse();
        assertThat(g.contains("lonely")).isFalse();
        assertThat(g.reachableFrom("b")).containsExactly("d");
        assertThat(g.reachableFrom("a")).containsExactlyInAnyOrder("b", "c", "d");
    }

    @Test
    void anEngineWithACycleDoesNotStart() {
        AxEngine engine = AxEngine.builder()
                .store(new InMemoryInstanceStore())
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId("n")
                .build();
        engine.register(root("r"));
        engine.register(step("x", "r", "y"));
        engine.register(step("y", "x"));
        assertThatThrownBy(engine::start)
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("x -> y -> x");
        assertThat(engine.isRunning()).isFalse();
    }
}
