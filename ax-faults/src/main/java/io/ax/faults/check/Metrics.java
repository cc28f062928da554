package io.ax.faults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the report measures beside the checks: leader handovers and instance takeovers with their durations, and how
 * many of them had no injected fault near them (a machine too busy to renew a lease or write a heartbeat in time);
 * fires that started later than the misfire threshold; allowed overlaps; attempts run again after a takeover; the runs
 * judged against the limits across the cluster, and the allowed excesses of those; the starts judged against the
 * rates, and the allowed excesses of those.
 */
public record Metrics(
        Spread leaderHandovers,
        int handoversWithoutFault,
        Spread runningTakeovers,
        int takeoversWithoutFault,
        int takenBack,
        int takenBackWithoutFault,
        int lateFires,
        int lateWithoutFault,
        long latestFireUs,
        int catchUps,
        int allowedOverlaps,
        long longestAllowedOverlapUs,
        int rerunsAfterTakeover,
        long staleFencedWrites,
        LimitsJudged limits,
        RatesJudged rates) {

    /** A count with the smallest, median and largest duration, in microseconds. */
    public record Spread(int count, long minUs, long medianUs, long maxUs) {

        static Spread of(List<Long> values) {
            if (values.isEmpty()) {
                return new Spread(0, 0, 0, 0);
            }
            List<Long> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            return new Spread(
                    sorted.size(), sorted.get(0), sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
        }

        public String render() {
            return count == 0
                    ? "0"
                    : count + " (" + minUs / 1_000 + " / " + medianUs / 1_000 + " / " + maxUs / 1_000 + " ms)";
        }
    }

    /**
     * What the limit check judged.
     *
     * @param runs the runs judged against at least one limit
     * @param each what was judged of each limit
     * @param allowedExcesses runs beyond a limit that were within it without the runs of nodes that lost their lease
     * @param longestAllowedExcessUs the longest overlap of those
     */
    public record LimitsJudged(int runs, List<LimitJudged> each, int allowedExcesses, long longestAllowedExcessUs) {

        public LimitsJudged {
            each = List.copyOf(each);
        }

        static LimitsJudged of(LimitedRuns limited) {
            int allowed = 0;
            long longest = 0;
            for (LimitedRuns.Excess x : limited.excesses()) {
                if (x.allowed()) {
                    allowed++;
                    longest = Math.max(longest, x.overlapUs());
                }
            }
            return new LimitsJudged(limited.runs(), limited.judged(), allowed, longest);
        }
    }

    /**
     * What the limit check judged of one limit.
     *
     * @param limit its key as the nodes recorded it: {@code task:<name>}, {@code group:<name>}, or {@code
     *     mutex:<template>}
     * @param permits how many runs may hold one of its keys at once
     * @param runs the runs judged against it
     * @param keys how many keys those held (a mutex's resolved keys; otherwise 1)
     * @param peak the most runs of one key that went at once, counting only the runs of nodes holding their lease
     * @param waited the instances whose audit trail shows a wait for a permit of it
     */
    public record LimitJudged(String limit, int permits, int runs, int keys, int peak, int waited) {

        public String render() {
            return limit + " (" + permits + "): " + runs + " runs" + (keys > 1 ? " on " + keys + " keys" : "")
                    + ", at most " + peak + " at once, " + waited + " waited";
        }
    }

    /**
     * What the rate check judged.
     *
     * @param starts the handler starts judged against at least one rate (each attempt's first)
     * @param each what was judged of each rate
     * @param allowedExcesses starts beyond a rate that were within it without the late starts: those later after
     *     their claim than the tolerance, and those of nodes that lost their lease or were hit by a fault in the
     *     window before them
     * @param allowedForSlowStarts those of them that the starts of nodes cut off or frozen do not explain: a start
     *     later after its claim than the tolerance on a node that was neither (a busy machine)
     * @param longestLagUs the longest a start came after its claim (its attempt's first RUNNING row)
     */
    public record RatesJudged(
            int starts, List<RateJudged> each, int allowedExcesses, int allowedForSlowStarts, long longestLagUs) {

        public RatesJudged {
            each = List.copyOf(each);
        }

        static RatesJudged of(RatedStarts rated) {
            int allowed = 0;
            int slow = 0;
            for (RatedStarts.Excess x : rated.excesses()) {
                allowed += x.allowed() ? 1 : 0;
                slow += x.allowed() && !x.allowedForFaults() ? 1 : 0;
            }
            return new RatesJudged(rated.starts(), rated.judged(), allowed, slow, rated.longestLagUs());
        }
    }

    /**
     * What the rate check judged of one rate.
     *
     * @param limit its key as the nodes recorded it, {@code rate:task:<name>}
     * @param permits how many may start in a window
     * @param window the window
     * @param starts the starts judged against it
     * @param peak the most starts in any full window (half-open, anchored at a start): information, not a violation,
     *     for a start lags its claim and the check judges a shorter window
     * @param waited the instances whose audit trail shows a wait for a permit of it
     */
    public record RateJudged(String limit, int permits, Duration window, int starts, int peak, int waited) {

        public String render() {
            String w = Times.millis(window.toNanos() / 1_000);
            return limit + " (" + permits + " per " + w + "): " + starts + " starts, at most " + peak + " in any " + w
                    + ", " + waited + " waited";
        }
    }

    static Metrics of(Evidence e) {
        History h = e.history();
        FaultWindows windows = e.windows();

        List<Long> handovers = new ArrayList<>();
        int handoversAlone = 0;
        for (History.LeaseChange c : h.leaseChanges()) {
            if (c.epoch() > c.oldEpoch() && c.oldEpoch() > 0) {
                handovers.add(c.atUs() - c.oldRenewedUs());
                if (!windows.near(c.oldRenewedUs(), c.atUs())) {
                    handoversAlone++;
                }
            }
        }

        List<Long> takeovers = new ArrayList<>();
        int takeoversAlone = 0;
        int reruns = 0;
        for (List<Segments.Segment> of : e.segments().all()) {
            boolean takenOverBefore = false;
            for (Segments.Segment s : of) {
                if (takenOverBefore && !s.runs().isEmpty()) {
                    reruns++;
                }
                if (s.takenOver() && "FAILED".equals(s.end().to())) {
                    long from = orphanedAt(h, s);
                    takeovers.add(s.end().atUs() - from);
                    if (!windows.near(from, s.end().atUs())) {
                        takeoversAlone++;
                    }
                }
                takenOverBefore |= s.takenOver() && !s.runs().isEmpty();
            }
        }

        int takenBack = 0;
        int takenBackAlone = 0;
        int late = 0;
        int lateAlone = 0;
        long latest = 0;
        int catchUps = 0;
        for (History.Instance in : h.instances().values()) {
            for (History.Step s : h.trail(in.id())) {
                if ("DISPATCHED".equals(s.from()) && "SCHEDULED".equals(s.to())) {
                    takenBack++;
                    if (!windows.near(s.atUs() - e.judgement().leaseUs(), s.atUs())) {
                        takenBackAlone++;
                    }
                }
            }
            if ("CATCH_UP".equals(in.origin())) {
                catchUps++;
            }
            List<History.Run> runs = h.runs(in.id());
            if ("SERIES".equals(in.origin()) && !runs.isEmpty()) {
                long lateness = runs.get(0).startUs() - in.scheduledUs();
                latest = Math.max(latest, lateness);
                if (lateness > e.judgement().misfire().toNanos() / 1_000) {
                    late++;
                    if (!windows.near(in.scheduledUs(), runs.get(0).startUs())) {
                        lateAlone++;
                    }
                }
            }
        }

        int allowed = 0;
        long longest = 0;
        for (OverlapCheck.Overlap o : OverlapCheck.overlaps(e)) {
            if (o.lapsed()) {
                allowed++;
                longest = Math.max(longest, o.overlapUs());
            }
        }
        return new Metrics(
                Spread.of(handovers),
                handoversAlone,
                Spread.of(takeovers),
                takeoversAlone,
                takenBack,
                takenBackAlone,
                late,
                lateAlone,
                latest,
                catchUps,
                allowed,
                longest,
                reruns,
                h.staleFencedWrites(),
                LimitsJudged.of(LimitedRuns.of(e)),
                RatesJudged.of(RatedStarts.of(e)));
    }

    /**
     * When a start taken over was left without its node: the exit of the process that ran it (or, when its handler
     * had recorded no run yet, of the node's process at the start), when it exited before the takeover; else the
     * beginning of the last lapse of its node's heartbeats that ended after the start, before the takeover (a node frozen or cut
     * off); else its last heartbeat. A restarted node heartbeats again under its name, and a lapse before the start
     * is an earlier break, which this start's node had come back from: neither says when this start was left.
     */
    private static long orphanedAt(History h, Segments.Segment s) {
        long takeover = s.end().atUs();
        for (History.Run r : s.runs()) {
            History.Process p = h.process(r.pid());
            if (p != null && p.exitUs() != null && p.exitUs() <= takeover) {
                return p.exitUs();
            }
        }
        History.Process atStart = h.processAt(s.start().node(), s.start().atUs());
        if (atStart != null && atStart.exitUs() != null && atStart.exitUs() <= takeover) {
            return atStart.exitUs();
        }
        long lease = Judgement.of(h).leaseUs();
        long last = Long.MIN_VALUE;
        long lapseStart = Long.MIN_VALUE;
        for (History.Beat b : h.beats(s.start().node())) {
            if (b.atUs() > takeover) {
                break;
            }
            if (last != Long.MIN_VALUE
                    && b.atUs() - last >= lease
                    && b.atUs() > s.start().atUs()) {
                lapseStart = last;
            }
            last = b.atUs();
        }
        if (last != Long.MIN_VALUE && takeover - last >= lease) {
            return last;
        }
        return lapseStart != Long.MIN_VALUE
                ? lapseStart
                : last == Long.MIN_VALUE ? s.start().atUs() : last;
    }
}
