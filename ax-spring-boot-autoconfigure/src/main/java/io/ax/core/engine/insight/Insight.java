package io.ax.core.engine.insight;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.Backlog;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Tells the {@link EngineObserver}s what happens, and keeps the engine's backlog: due instances handed to a pool
 * (or sent back by a full one) that have not started yet. The backlog is kept from what the engine does, so reading
 * it costs no query. Thread-safe.
 */
public final class Insight {

    private static final System.Logger LOG = EngineLog.get();

    /** One due instance that has not started: its pool, since when it is due, when it was last handed off. */
    private record Waiting(String group, int priority, Instant dueAt, long handedOffNanos) {}

    private final List<EngineObserver> observers;
    private final AxClock clock;
    /** Observers that threw once: logged, so that a broken observer does not flood the log. */
    private final Set<EngineObserver> failed = ConcurrentHashMap.newKeySet();
    /** Instance id -> its wait; from the hand-off to a pool until the start, or until the instance is released. */
    private final ConcurrentHashMap<String, Waiting> waiting = new ConcurrentHashMap<>();

    public Insight(List<EngineObserver> observers, AxClock clock) {
        this.observers = List.copyOf(observers);
        this.clock = clock;
    }

    /** The instance is about to go to its pool; a first attempt is due since its fire time, a retry since now. */
    public void handingOff(Due due, int attempt) {
        Instant dueAt = attempt <= 1 ? due.scheduledTime() : clock.instant();
        Waiting fresh = new Waiting(due.task().group(), due.priority(), dueAt, clock.nanoTime());
        // sent back by a full pool and handed off again: still due since the first time
        waiting.merge(
                due.instanceId(),
                fresh,
                (old, again) -> new Waiting(old.group(), old.priority(), old.dueAt(), again.handedOffNanos()));
    }

    /** The pool took the instance. */
    public void handedOff(Due due) {
        each(o -> o.dispatched(due.task(), EngineObserver.DispatchOutcome.DISPATCHED));
        each(o -> o.received(due.task()));
    }

    public void skipped(Due due) {
        each(o -> o.dispatched(due.task(), EngineObserver.DispatchOutcome.SKIPPED));
    }

    public void rejected(Due due) {
        each(o -> o.dispatched(due.task(), EngineObserver.DispatchOutcome.REJECTED));
    }

    /** A cluster-wide limit had no free permit for the instance: it waits for one, due. */
    public void waited(Due due) {
        waiting.remove(due.instanceId());
        each(o -> o.dispatched(due.task(), EngineObserver.DispatchOutcome.WAITED));
    }

    /** The instance will not start here (it ended, or another writer moved it): it leaves the backlog. */
    public void released(Due due) {
        waiting.remove(due.instanceId());
    }

    public void started(Due due, int attempt) {
        Waiting w = waiting.remove(due.instanceId());
        if (observers.isEmpty()) {
            return;
        }
        Duration lateness = Duration.between(due.scheduledTime(), clock.instant());
        long ackNanos = w == null ? 0 : clock.nanoTime() - w.handedOffNanos();
        Duration ack = Duration.ofNanos(Math.max(0, ackNanos));
        Duration late = lateness.isNegative() ? Duration.ZERO : lateness;
        each(o -> o.started(due.task(), attempt, late, ack));
    }

    public void finished(AxTask task, InstanceState outcome, long tookNanos) {
        if (!observers.isEmpty()) {
            Duration took = Duration.ofNanos(Math.max(0, tookNanos));
            each(o -> o.finished(task, outcome, took));
        }
    }

    public void acknowledged(AxTask task, Instant assignedAt) {
        if (!observers.isEmpty()) {
            Duration latency = Duration.between(assignedAt, clock.instant());
            Duration ack = latency.isNegative() ? Duration.ZERO : latency;
            each(o -> o.acknowledged(task, ack));
        }
    }

    public void retried(AxTask task) {
        each(o -> o.retried(task));
    }

    public void takenOver(AxTask task) {
        each(o -> o.takenOver(task));
    }

    public void deadLettered(AxTask task) {
        each(o -> o.deadLettered(task));
    }

    public void retentionDeleted(int count) {
        each(o -> o.retentionDeleted(count));
    }

    public void clockJumped(AxClockJumpEvent event) {
        each(o -> o.clockJumped(event));
    }

    public void storeWentBack(io.ax.core.AxStoreRegressionEvent event) {
        each(o -> o.storeWentBack(event));
    }

    /** A snapshot of the backlog, computed from what waits now. */
    public Backlog backlog() {
        Map<String, Integer> perGroup = new HashMap<>();
        Map<Integer, Integer> perPriority = new HashMap<>();
        Instant oldest = null;
        for (Waiting w : waiting.values()) {
            perGroup.merge(w.group(), 1, Integer::sum);
            perPriority.merge(w.priority(), 1, Integer::sum);
            if (oldest == null || w.dueAt().isBefore(oldest)) {
                oldest = w.dueAt();
            }
        }
        Duration age = oldest == null ? Duration.ZERO : Duration.between(oldest, clock.instant());
        return new Backlog(perGroup, perPriority, age.isNegative() ? Duration.ZERO : age);
    }

    private void each(Consumer<EngineObserver> call) {
        for (EngineObserver o : observers) {
            try {
                call.accept(o);
            } catch (RuntimeException e) {
                if (failed.add(o)) {
                    LOG.log(
                            Level.WARNING,
                            "Engine observer {0} failed (logged once; the engine goes on): {1}",
                            o.getClass().getName(),
                            e.toString());
                }
            }
        }
    }
}
