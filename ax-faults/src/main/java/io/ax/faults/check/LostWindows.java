package io.ax.faults.check;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The windows in which a failover of the pair may have lost commits, and what AX said of them. A failover to a
 * standby that lagged (and an old primary that came back) loses what the old primary committed after the standby's
 * last replayed commit; what AX decided on that lost history can break its promises, and the promise there is that
 * AX says so. A violation is <em>in a lost window</em> when its instance lost a row in that failover (a transition, or
 * the instance itself), or it happened between the standby's last replayed commit and the moment the cluster can
 * have noticed the new primary (promotion, or the old primary's return until it was stopped, plus lease, heartbeat
 * and a few seconds). It is <em>reported</em> when a node said, after the failover began, that its store went back
 * and named that instance; a violation about no instance (an order) is reported by any such saying. A failover to a
 * caught-up standby has no lost window: its violations are all counted.
 */
final class LostWindows {

    private static final long SLACK_US = 3_000_000;
    /** A node's log is stamped with its own clock, which a clock fault puts up to 10 s off. */
    private static final long CLOCK_US = 10_000_000;

    private final History h;
    private final long afterUs;

    LostWindows(History h, Judgement judgement) {
        this.h = h;
        this.afterUs = judgement.lease().plus(judgement.heartbeat()).toNanos() / 1_000 + SLACK_US;
    }

    /** The failover whose lost window the violation falls in, or null. */
    History.Failover windowOf(Violation v) {
        for (History.Failover f : h.failovers().failovers()) {
            if (f.caughtUp()) {
                continue;
            }
            if (v.instanceId() != null && lostRowsOf(f).contains(v.instanceId())) {
                return f;
            }
            long to = (f.backToUs() != null ? Math.max(f.backToUs(), f.promotedUs()) : f.promotedUs()) + afterUs;
            long from = f.replayedUntilUs() == 0 ? f.killedUs() : f.replayedUntilUs();
            if (v.atUs() >= from && v.atUs() <= to) {
                return f;
            }
        }
        return null;
    }

    /** Whether a node said, after the failover began, that the store went back, naming the instance if there is one. */
    boolean reported(History.Failover f, String instanceId) {
        for (History.Said s : h.failovers().said()) {
            if (!s.logged() || s.atUs() < f.replayedUntilUs() - CLOCK_US) {
                continue;
            }
            if (instanceId == null || s.instanceIds().contains(instanceId)) {
                return true;
            }
        }
        return false;
    }

    /** The ERRORs the nodes logged about their store after the failover began. */
    List<History.Said> saidAfter(History.Failover f) {
        return h.failovers().said().stream()
                .filter(s -> s.logged() && s.atUs() >= f.replayedUntilUs() - CLOCK_US)
                .toList();
    }

    private Set<String> lostRowsOf(History.Failover f) {
        Set<String> out = new HashSet<>();
        for (History.LostRow r : h.failovers().lost()) {
            if (r.failoverId() == f.id() && r.instanceId() != null) {
                out.add(r.instanceId());
            }
        }
        return out;
    }
}
