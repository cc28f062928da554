package io.ax.faults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The faults of a run as windows of time in which their effects may show: from a second before a fault began until
 * it ended plus the time the cluster takes to notice and act (lease, heartbeat, and a few seconds of a busy
 * machine). What happens outside every window happened without a fault to explain it.
 */
final class FaultWindows {

    private static final long BEFORE_US = 1_000_000;
    private static final long SLACK_US = 3_000_000;

    private final List<History.Fault> faults;
    private final long afterUs;

    FaultWindows(History history, Judgement judgement) {
        this.faults = history.faults();
        this.afterUs = judgement.lease().plus(judgement.heartbeat()).toNanos() / 1_000 + SLACK_US;
    }

    /** Whether the span from {@code fromUs} to {@code toUs} meets some fault's window. */
    boolean near(long fromUs, long toUs) {
        for (History.Fault f : faults) {
            if (meets(f, fromUs, toUs)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the span from {@code fromUs} to {@code toUs} meets the window of a fault that hit {@code node}: one
     * whose target names it (a target may name several, comma-separated) or is {@code all}.
     */
    boolean nearNode(String node, long fromUs, long toUs) {
        for (History.Fault f : faults) {
            if ((f.target().equals("all") || List.of(f.target().split(",")).contains(node)) && meets(f, fromUs, toUs)) {
                return true;
            }
        }
        return false;
    }

    private boolean meets(History.Fault f, long fromUs, long toUs) {
        long start = f.startUs() - BEFORE_US;
        long end = (f.endUs() == null ? Long.MAX_VALUE - afterUs : f.endUs()) + afterUs;
        return fromUs <= end && toUs >= start;
    }

    /** The faults whose span (without padding) lies within {@code around} of the span given. */
    List<History.Fault> around(long fromUs, long toUs, Duration around) {
        long pad = around.toNanos() / 1_000;
        List<History.Fault> out = new ArrayList<>();
        for (History.Fault f : faults) {
            long end = f.endUs() == null ? Long.MAX_VALUE : f.endUs();
            if (fromUs - pad <= end && toUs + pad >= f.startUs()) {
                out.add(f);
            }
        }
        return out;
    }
}
