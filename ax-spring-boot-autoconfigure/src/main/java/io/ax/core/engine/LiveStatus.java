package io.ax.core.engine;

import io.ax.core.clock.ClockStatus;
import io.ax.core.clock.ClusterTime;
import io.ax.core.clock.ClusterTimeStatus;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterView;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.insight.Listeners;
import io.ax.core.engine.insight.StoreFigures;
import io.ax.core.engine.ownership.Leadership;
import io.ax.core.engine.planning.ClockGuard;
import io.ax.core.engine.scheduling.Prefetcher;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.work.ExecutionPools;
import io.ax.core.engine.work.LimitedClaims;
import io.ax.core.engine.writes.StateWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The engine's {@link EngineStatus}, read from its parts as they are at each question. */
final class LiveStatus implements EngineStatus {

    private final LimitedClaims limited;
    private final EngineThreads threads;
    private final ExecutionPools pools;
    private final StateWriter writer;
    private final StateWriter fireWriter;
    private final StateWriter endWriter;
    private final Leadership leadership;
    private final Prefetcher prefetcher;
    private final Insight insight;
    private final ClusterTime clusterTime; // null: the clock is taken as it is
    private final ClockGuard clockGuard;
    private final Membership membership;
    private final StoreFigures figures;
    private final Listeners listeners;
    private final StoreRegressions storeRegressions;

    LiveStatus(
            EngineThreads threads,
            ExecutionPools pools,
            StateWriter writer,
            StateWriter fireWriter,
            StateWriter endWriter,
            Leadership leadership,
            Prefetcher prefetcher,
            LimitedClaims limited,
            Insight insight,
            ClusterTime clusterTime,
            ClockGuard clockGuard,
            Membership membership,
            StoreFigures figures,
            Listeners listeners,
            StoreRegressions storeRegressions) {
        this.storeRegressions = storeRegressions;
        this.threads = threads;
        this.pools = pools;
        this.writer = writer;
        this.fireWriter = fireWriter;
        this.endWriter = endWriter;
        this.leadership = leadership;
        this.prefetcher = prefetcher;
        this.limited = limited;
        this.insight = insight;
        this.clusterTime = clusterTime;
        this.clockGuard = clockGuard;
        this.membership = membership;
        this.figures = figures;
        this.listeners = listeners;
    }

    @Override
    public int wheelSize() {
        return threads.timers();
    }

    @Override
    public int executing() {
        return pools.active();
    }

    @Override
    public List<String> busyWith() {
        List<String> busy = new ArrayList<>(0);
        if (!threads.idle()) {
            busy.add("dispatch");
        }
        if (!pools.idle()) {
            busy.add("pools");
        }
        if (!writer.idle()) {
            busy.add("writer");
        }
        if (!fireWriter.idle()) {
            busy.add("fire-writer");
        }
        if (!endWriter.idle()) {
            busy.add("end-writer");
        }
        if (!leadership.idle()) {
            busy.add("leader");
        }
        if (!prefetcher.idle()) {
            busy.add("prefetch");
        }
        if (!limited.idle() || !limited.waitingByLimit().isEmpty()) {
            busy.add("permits"); // a claim with permits on its way, or instances waiting for a permit to free
        }
        return busy;
    }

    @Override
    public Map<String, Integer> waitingForPermits() {
        return limited.waitingByLimit();
    }

    @Override
    public Backlog backlog() {
        return insight.backlog();
    }

    @Override
    public Optional<ClusterTimeStatus> clusterTime() {
        return clusterTime == null ? Optional.empty() : Optional.of(clusterTime.status());
    }

    @Override
    public Optional<io.ax.core.AxStoreRegressionEvent> storeRegression() {
        return storeRegressions.last();
    }

    @Override
    public boolean fencedByStoreRegression() {
        return storeRegressions.fenced();
    }

    @Override
    public Optional<String> lastFailover() {
        return storeRegressions.lastFailover();
    }

    @Override
    public ClockStatus clockStatus() {
        return clockGuard.status();
    }

    @Override
    public ClusterView cluster() {
        return membership.view();
    }

    @Override
    public Optional<Membership.StoreContact> storeContact() {
        return membership.unreached();
    }

    @Override
    public Optional<PartitionTerms> partitions() {
        return membership.partitions();
    }

    @Override
    public Duration leaderlessFor() {
        return membership.leaderlessFor();
    }

    @Override
    public ClusterSettings clusterSettings() {
        return membership.settings();
    }

    @Override
    public Map<String, Long> reassigned() {
        return leadership.reassigned();
    }

    @Override
    public Optional<StoreOutage> storeOutage() {
        return writer.outage()
                .or(fireWriter::outage)
                .or(endWriter::outage)
                .map(o -> new StoreOutage(o.since(), o.cause()));
    }

    @Override
    public long repairedSeries() {
        return leadership.repairedSeries();
    }

    @Override
    public long repairedInFlight() {
        return leadership.repairedInFlight();
    }

    @Override
    public Optional<DueInStore> dueInStore() {
        return figures.dueInStore();
    }

    @Override
    public Optional<DeadLetterCount> deadLetterCount() {
        return figures.deadLetters();
    }

    @Override
    public Optional<StoreOutage> storeUnanswered() {
        return figures.unanswered().map(u -> new StoreOutage(u.since(), u.cause()));
    }

    @Override
    public long droppedEvents() {
        return listeners.dropped();
    }

    @Override
    public long failovers() {
        return leadership.failovers();
    }
}
