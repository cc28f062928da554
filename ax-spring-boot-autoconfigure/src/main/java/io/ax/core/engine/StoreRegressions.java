package io.ax.core.engine;

import io.ax.core.AxStoreRegressionEvent;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.StoreHistory;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.insight.Listeners;
import io.ax.core.engine.writes.RecentCommits;
import io.ax.core.logging.Loggers;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a node does when its store went back in time ({@link StoreHistory} found it, or a failover it saw lost changes
 * this node had committed): it lists the instances affected (those of {@link RecentCommits} that the store no
 * longer holds), fences itself for {@code hold} ({@link Membership#fence}), and says so: one ERROR line, the
 * observers ({@link EngineObserver#storeWentBack}, a metric) and the listeners ({@link AxStoreRegressionEvent}).
 * Findings made while the node is fenced already join the report under way. Thread-safe: the heartbeat's and the
 * partitions' threads report.
 */
final class StoreRegressions implements StoreHistory.Listener {

    private static final System.Logger LOG = Loggers.get(AxEngine.class.getName());

    private final String nodeId;
    private final AxClock clock;
    private final InstanceStore store;
    private final RecentCommits commits;
    private final Duration hold;
    private final Insight insight;
    private final Listeners listeners;
    private final List<Consumer<AxStoreRegressionEvent>> subscribers;
    private volatile Membership membership;
    /** The last report, as it grew while the node was fenced; null before the first. */
    private volatile AxStoreRegressionEvent last;
    /** The last failover seen without a loss, in words; null before the first. */
    private volatile String lastFailover;

    StoreRegressions(
            String nodeId,
            AxClock clock,
            InstanceStore store,
            RecentCommits commits,
            Duration hold,
            Insight insight,
            Listeners listeners,
            List<Consumer<AxStoreRegressionEvent>> subscribers) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.store = store;
        this.commits = commits;
        this.hold = hold;
        this.insight = insight;
        this.listeners = listeners;
        this.subscribers = List.copyOf(subscribers);
    }

    void attach(Membership membership) {
        this.membership = membership;
    }

    @Override
    public synchronized void wentBack(List<String> findings) {
        boolean already = fenceNow();
        report(findings, affected(), already, true); // the fence first: reading the rows back may take a while
    }

    @Override
    public synchronized void failedOver(String what) {
        Affected affected = affected();
        if (affected.ids().isEmpty()) {
            lastFailover = what + " at " + clock.instant() + "; " + affected.checked
                    + " changes this node committed lately are all there";
            LOG.log(
                    Level.WARNING,
                    "Node {0} saw its store fail over: {1}; the {2} changes it committed lately are all there",
                    nodeId,
                    what,
                    affected.checked);
            return;
        }
        boolean already = fenceNow();
        report(
                List.of(what + ", and " + affected.ids().size() + " of the " + affected.checked
                        + " changes this node committed lately are missing from the store"),
                affected,
                already,
                true);
    }

    /**
     * At a graceful stop, once this node's last writes are in: its recent changes that the store no longer holds,
     * reported as any finding is (ERROR, metric, event). A failover that lost them shortly before the stop may not
     * have been found yet by the heartbeat, and what this node remembers is gone with it: the node that starts next
     * cannot know. Nothing is fenced, the node stops anyway; nothing is said when all is there.
     */
    synchronized void checkAtStop() {
        Affected affected = affected();
        if (affected.ids().isEmpty()) {
            return;
        }
        report(
                List.of("as it stopped, " + affected.ids().size() + " of the " + affected.checked
                        + " changes it committed lately were missing from the store"),
                affected,
                last != null && fenced(),
                false);
    }

    /**
     * The changes another node (or this one before a restart) committed lately and left as it stopped, or last wrote
     * before it crashed ({@link DepartedCommits}), of which the store no longer holds {@code missing}: a failover after
     * that stop lost them.
     * Reported as any finding is; nothing is fenced, since what went back is not what this node decided.
     */
    synchronized void leftMissing(
            String departed, java.time.Instant writtenAt, boolean graceful, List<String> missing, int checked) {
        report(
                List.of(missing.size() + " of the " + checked + " changes node " + departed + " committed lately, "
                        + (graceful ? "left as it stopped at " : "last written before it crashed or froze at ")
                        + writtenAt
                        + ", were missing from the store"),
                new Affected(missing, checked),
                last != null && fenced(),
                false);
    }

    /** Fences this node (again); whether it was fenced, with a report under way, already. */
    private boolean fenceNow() {
        Membership m = membership;
        boolean already = m != null && m.isFenced() && last != null;
        if (m != null) {
            m.fence(hold);
        }
        return already;
    }

    private void report(List<String> findings, Affected affected, boolean already, boolean fencing) {
        if (already) {
            LinkedHashSet<String> allFindings = new LinkedHashSet<>(last.findings());
            allFindings.addAll(findings);
            LinkedHashSet<String> ids = new LinkedHashSet<>(last.affectedInstances());
            ids.addAll(affected.ids());
            last = new AxStoreRegressionEvent(
                    nodeId,
                    new ArrayList<>(allFindings),
                    capped(new ArrayList<>(ids)),
                    Math.max(last.checkedCommits(), affected.checked),
                    last.detectedAt());
            LOG.log(
                    Level.ERROR,
                    "Node {0}: its store went back in time, it also found: {1}; {2} instance(s) affected{3}",
                    nodeId,
                    findings,
                    affected.ids().size(),
                    affected.ids().isEmpty() ? "" : ": " + preview(affected.ids()));
            if (!affected.ids().isEmpty()) {
                // the listeners heard the first finding's instances only: they are told of these as well (the
                // regression is still the one counted)
                listeners.publish(
                        "store-regression",
                        new AxStoreRegressionEvent(
                                nodeId, findings, capped(affected.ids()), affected.checked, clock.instant()),
                        subscribers);
            }
            return;
        }
        AxStoreRegressionEvent event =
                new AxStoreRegressionEvent(nodeId, findings, capped(affected.ids()), affected.checked, clock.instant());
        last = event;
        String named = affected.ids().isEmpty() ? "" : ": " + preview(affected.ids());
        if (fencing) {
            LOG.log(
                    Level.ERROR,
                    "Node {0}: its store went back in time or is another server: {1}. {2} instance(s) whose changes"
                            + " it committed lately are missing or older there{3} (of {4} checked). It decides"
                            + " nothing for {5} ms, gives its partitions up and raises the epochs that went back,"
                            + " then takes part again; the work of those instances may have run, or may run again",
                    nodeId,
                    String.join("; ", findings),
                    affected.ids().size(),
                    named,
                    affected.checked,
                    hold.toMillis());
        } else {
            LOG.log(
                    Level.ERROR,
                    "Node {0}: its store went back in time: {1}. {2} instance(s) are missing or older there{3} (of {4}"
                            + " checked); the work of those instances may have run, or may run again",
                    nodeId,
                    String.join("; ", findings),
                    affected.ids().size(),
                    named,
                    affected.checked);
        }
        insight.storeWentBack(event);
        listeners.publish("store-regression", event, subscribers);
    }

    /** The last report, also once the node takes part again; empty before the first. */
    Optional<AxStoreRegressionEvent> last() {
        return Optional.ofNullable(last);
    }

    /** The last failover seen without a loss; empty before the first. */
    Optional<String> lastFailover() {
        return Optional.ofNullable(lastFailover);
    }

    /** Whether the node decides nothing now because its store went back. */
    boolean fenced() {
        Membership m = membership;
        return m != null && m.isFenced();
    }

    private record Affected(List<String> ids, int checked) {}

    private Affected affected() {
        int checked = commits.size();
        try {
            return new Affected(commits.missingFrom(store), checked);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not check its {1} recent changes against the store: {2}",
                    nodeId,
                    checked,
                    e.toString());
            return new Affected(List.of(), 0);
        }
    }

    private static List<String> capped(List<String> ids) {
        return ids.size() <= AxStoreRegressionEvent.MAX_AFFECTED
                ? ids
                : ids.subList(0, AxStoreRegressionEvent.MAX_AFFECTED);
    }

    private static String preview(List<String> ids) {
        return ids.size() <= 20
                ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, 20)) + ", ... (" + ids.size() + " in all)";
    }
}
