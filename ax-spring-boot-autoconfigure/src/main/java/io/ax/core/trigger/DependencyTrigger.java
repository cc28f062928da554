package io.ax.core.trigger;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Fires once all its upstream tasks have ended SUCCESS in the same workflow run, never on a clock of its own. The
 * engine creates the instance when the last upstream of a run succeeds; see {@code io.ax.core.engine.WorkflowGraph}
 * for the rules a graph of such tasks must follow (no cycles, known upstreams, one root per workflow).
 *
 * @param upstream the names of the tasks it waits for: at least one, no duplicates, in the order given
 */
public record DependencyTrigger(List<String> upstream) implements Trigger {

    public DependencyTrigger {
        Objects.requireNonNull(upstream, "upstream");
        if (upstream.isEmpty()) {
            throw new IllegalArgumentException("a dependency trigger needs at least one upstream task");
        }
        for (String name : upstream) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("an upstream task name must not be blank");
            }
        }
        if (new LinkedHashSet<>(upstream).size() != upstream.size()) {
            throw new IllegalArgumentException("upstream tasks " + upstream + " name a task twice");
        }
        upstream = List.copyOf(upstream);
    }

    /** A trigger waiting for {@code upstream}. */
    public static DependencyTrigger after(String... upstream) {
        return new DependencyTrigger(List.of(upstream));
    }

    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        return Optional.empty();
    }

    @Override
    public Optional<Instant> nextFireTime(Instant previous, Instant completed) {
        return Optional.empty();
    }

    @Override
    public Optional<Instant> resumeAfter(Instant previous, Instant now) {
        return Optional.empty();
    }

    @Override
    public boolean firesOnItsOwn() {
        return false;
    }

    @Override
    public String describe() {
        return "after " + String.join(", ", upstream);
    }
}
