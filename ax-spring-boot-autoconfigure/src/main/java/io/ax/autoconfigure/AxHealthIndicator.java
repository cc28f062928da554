package io.ax.autoconfigure;

import io.ax.core.clock.ClockStatus;
import io.ax.core.cluster.ClusterView;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.Backlog;
import io.ax.core.store.StoreDescription;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code ax} health component:
 *
 * <ul>
 *   <li>DOWN when the store does not answer or refuses writes (AX retries them meanwhile), or the engine is not
 *       running;
 *   <li>OUT_OF_SERVICE while trigger decisions pause after a clock jump, or when no leader is known;
 *   <li>the configured backlog status when the oldest due instance has waited longer than the maximum age;
 *   <li>UP otherwise.
 * </ul>
 *
 * Details: node, storeKind and storeDescription (for JDBC the database and its URL without credentials), role,
 * leader, epoch, backlog per pool, the oldest due-but-not-started age, clock, the cluster time offset, dead letters,
 * and parts AX can do without (Redis), which never change the status.
 */
final class AxHealthIndicator extends AbstractHealthIndicator {

    private final AxEngine engine;
    private final Duration maxBacklogAge;
    private final Status backlogStatus;

    private final List<AxHealthDetail> details;

    AxHealthIndicator(AxEngine engine, Duration maxBacklogAge, Status backlogStatus, List<AxHealthDetail> details) {
        super("AX health check failed");
        this.engine = engine;
        this.details = List.copyOf(details);
        this.maxBacklogAge = maxBacklogAge;
        this.backlogStatus = backlogStatus;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        ClusterView cluster = engine.cluster();
        Backlog backlog = engine.backlog();
        ClockStatus clock = engine.clockStatus();
        builder.withDetail("node", cluster.nodeId())
                .withDetail("role", cluster.role().name().toLowerCase(Locale.ROOT))
                .withDetail("leader", cluster.leader() == null ? "unknown" : cluster.leader())
                .withDetail("epoch", cluster.epoch())
                .withDetail("liveNodes", cluster.liveNodes())
                .withDetail("backlog", backlog.perGroup())
                .withDetail("oldestDueNotStartedMillis", backlog.oldestAge().toMillis())
                .withDetail(
                        "clock",
                        clock.paused() ? "paused for " + clock.pauseLeft().toMillis() + " ms" : "ok");
        engine.clusterTime()
                .ifPresent(t -> builder.withDetail(
                        "clusterTime",
                        t.source() + " offset " + t.offset().toNanos() / 1_000 + " us +/- "
                                + t.uncertainty().toNanos() / 1_000 + " us"
                                + (t.failing() == null ? "" : " (last reading failed)")));
        for (AxHealthDetail detail : details) { // shown, never deciding the status: AX does without them
            builder.withDetail(detail.name(), detail.value());
        }
        try {
            StoreDescription store = engine.store().describe();
            builder.withDetail("storeKind", store.kind()).withDetail("storeDescription", store.toString());
            builder.withDetail("deadLetters", engine.store().deadLetterCount());
        } catch (RuntimeException e) {
            builder.down(e).withDetail("store", "unreachable");
            return;
        }
        var outage = engine.storeOutage();
        if (!engine.isRunning()) {
            builder.down().withDetail("engine", "not running");
        } else if (outage.isPresent()) {
            builder.down()
                    .withDetail("store", "writes failing since " + outage.get().since())
                    .withDetail("storeError", outage.get().cause());
        } else if (clock.paused()) {
            builder.outOfService();
        } else if (engine.leaderlessFor().compareTo(engine.clusterSettings().lease()) > 0) {
            builder.outOfService()
                    .withDetail("leaderlessMillis", engine.leaderlessFor().toMillis());
        } else if (backlog.oldestAge().compareTo(maxBacklogAge) > 0) {
            builder.status(backlogStatus).withDetail("maxBacklogAgeMillis", maxBacklogAge.toMillis());
        } else {
            builder.up();
        }
    }
}
