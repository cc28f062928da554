package io.ax.autoconfigure.health;

import io.ax.core.clock.ClockStatus;
import io.ax.core.cluster.ClusterView;
import io.ax.core.cluster.Membership;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.Backlog;
import io.ax.core.engine.EngineStatus;
import io.ax.core.store.StoreDescription;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code ax} health component, answered from what the engine already holds (it never waits for the store, which
 * during an outage would hold a probe for the pool's connection timeout):
 *
 * <ul>
 *   <li>DOWN when the engine is not running, for a while after this node found its store gone back in time (a
 *       failover that lost commits it had made, an old primary back; detail {@code storeWentBack}, with the
 *       instances affected in {@code storeWentBackAffected}), when this node has not reached the cluster store
 *       for more than two heartbeats (a call that fails or hangs; the cause and for how long are shown), when the
 *       store refuses writes (AX retries them meanwhile), or when it does not answer the reads made in the
 *       background for this component (one failed, or one has hung for a second);
 *   <li>OUT_OF_SERVICE while trigger decisions pause after a clock jump, or when no leader is known;
 *   <li>the configured backlog status when the oldest due instance has waited longer than the maximum age;
 *   <li>UP otherwise.
 * </ul>
 *
 * The check runs on its own thread ({@code ax-health}) and a probe waits for it at most {@code ax.health.timeout}: on a
 * starved machine a probe then gets the last answer, marked as such, and DOWN once a check has not finished for ten
 * times that bound (see {@link BoundedCheck}). The oldest due age is the older of this node's backlog and the store's
 * due instances as last read in the background (whether a node loaded them or not).
 *
 * <p>A DOWN here says that this node cannot do AX's work now, not that the process is broken: the component belongs in
 * the readiness group, not the liveness group (a liveness probe would restart every pod of a cluster that waits for
 * its database). Details: node, storeKind and storeDescription (for JDBC the database and its URL without
 * credentials), role, leader, epoch, backlog per pool, the oldest due-but-not-started age, clock, the cluster time
 * offset, dead letters (as last counted, with the time of that count), and parts AX can do without (Redis), which
 * never change the status.
 */
final class AxHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

    private final AxEngine engine;
    private final EngineStatus status;
    private final Duration maxBacklogAge;
    private final Status backlogStatus;

    private final List<AxHealthDetail> details;
    private final BoundedCheck bounded;

    AxHealthIndicator(AxEngine engine, Duration maxBacklogAge, Status backlogStatus, List<AxHealthDetail> details) {
        this(engine, maxBacklogAge, backlogStatus, details, DEFAULT_TIMEOUT);
    }

    /** @param timeout how long a probe waits for the check at most */
    AxHealthIndicator(
            AxEngine engine,
            Duration maxBacklogAge,
            Status backlogStatus,
            List<AxHealthDetail> details,
            Duration timeout) {
        super("AX health check failed");
        this.engine = engine;
        this.status = engine.status();
        this.details = List.copyOf(details);
        this.maxBacklogAge = maxBacklogAge;
        this.backlogStatus = backlogStatus;
        this.bounded = new BoundedCheck(this::check, timeout, timeout.multipliedBy(10), InstantSource.system());
    }

    /** How long a probe waits for the check when no timeout is configured. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Health answer = bounded.answer();
        builder.status(answer.getStatus()).withDetails(answer.getDetails());
    }

    @Override
    public void close() {
        bounded.close();
    }

    /** On ax-health: the component's answer from what the engine holds. */
    private Health check() {
        Health.Builder builder = new Health.Builder();
        try {
            check(builder);
        } catch (RuntimeException e) {
            builder.down(e);
        }
        return builder.build();
    }

    private void check(Health.Builder builder) {
        ClusterView cluster = status.cluster();
        Backlog backlog = status.backlog();
        ClockStatus clock = status.clockStatus();
        Duration oldestDue = status.oldestDueAge();
        builder.withDetail("node", cluster.nodeId())
                .withDetail("role", cluster.role().name().toLowerCase(Locale.ROOT))
                .withDetail("leader", cluster.leader() == null ? "unknown" : cluster.leader())
                .withDetail("epoch", cluster.epoch())
                .withDetail("liveNodes", cluster.liveNodes())
                .withDetail("backlog", backlog.perGroup())
                .withDetail("oldestDueNotStartedMillis", oldestDue.toMillis())
                .withDetail("lagMillis", status.lag().toMillis())
                .withDetail(
                        "clock",
                        clock.paused() ? "paused for " + clock.pauseLeft().toMillis() + " ms" : "ok");
        status.clusterTime()
                .ifPresent(t -> builder.withDetail(
                        "clusterTime",
                        t.source() + " offset " + t.offset().toNanos() / 1_000 + " us +/- "
                                + t.uncertainty().toNanos() / 1_000 + " us"
                                + (t.failing() == null ? "" : " (last reading failed)")));
        status.partitions()
                .ifPresent(p -> builder.withDetail(
                        "partitions",
                        p.owned().size() + " of " + p.count() + " owned" + (p.decides() ? "" : ", not deciding")));
        status.dueInStore()
                .ifPresent(d -> builder.withDetail("dueInStore", (d.capped() ? "more than " : "") + d.count())
                        .withDetail("dueInStoreReadAt", d.readAt()));
        for (AxHealthDetail detail : details) { // shown, never deciding the status: AX does without them
            builder.withDetail(detail.name(), detail.value());
        }
        if (!engine.isRunning()) {
            builder.down().withDetail("engine", "not running");
            return;
        }
        try {
            StoreDescription store = engine.store().describe(); // asked of the database once, at the engine's start
            builder.withDetail("storeKind", store.kind()).withDetail("storeDescription", store.toString());
        } catch (RuntimeException e) {
            builder.withDetail("storeDescription", "unknown: " + e); // a store of the application's own, failing
        }
        status.deadLetterCount()
                .ifPresentOrElse(
                        d -> builder.withDetail("deadLetters", d.count())
                                .withDetail("deadLettersCountedAt", d.readAt()),
                        () -> builder.withDetail("deadLetters", "not counted yet"));
        Optional<Membership.StoreContact> contact = status.storeContact();
        var outage = status.storeOutage();
        var unanswered = status.storeUnanswered();
        status.storeRegression()
                .ifPresent(r -> builder.withDetail(
                                "storeWentBack", r.detectedAt() + ": " + String.join("; ", r.findings()))
                        .withDetail("storeWentBackAffected", r.affectedInstances()));
        status.lastFailover().ifPresent(f -> builder.withDetail("lastFailover", f));
        if (status.fencedByStoreRegression()) {
            builder.down()
                    .withDetail(
                            "store",
                            "went back in time: this node decides nothing for a while, then takes part again"
                                    + " (see storeWentBack)");
        } else if (contact.isPresent()) {
            Membership.StoreContact c = contact.get();
            builder.down()
                    .withDetail(
                            "store",
                            "unreachable for " + c.unreachedFor().toMillis() + " ms"
                                    + (c.cutOff() ? "; the other nodes may take this node for dead" : ""))
                    .withDetail(
                            "storeError",
                            c.failure() != null
                                    ? c.failure()
                                    : "its calls do not return"
                                            + (c.waitingIn().isEmpty() ? "" : "; waiting in " + c.waitingIn()));
        } else if (outage.isPresent()) {
            builder.down()
                    .withDetail("store", "writes failing since " + outage.get().since())
                    .withDetail("storeError", outage.get().cause());
        } else if (unanswered.isPresent()) {
            builder.down()
                    .withDetail(
                            "store",
                            "reads unanswered since " + unanswered.get().since())
                    .withDetail("storeError", unanswered.get().cause());
        } else if (clock.paused()) {
            builder.outOfService();
        } else if (status.leaderlessFor().compareTo(status.clusterSettings().lease()) > 0) {
            builder.outOfService()
                    .withDetail("leaderlessMillis", status.leaderlessFor().toMillis());
        } else if (oldestDue.compareTo(maxBacklogAge) > 0) {
            builder.status(backlogStatus).withDetail("maxBacklogAgeMillis", maxBacklogAge.toMillis());
        } else {
            builder.up();
        }
    }
}
