package io.ax.faults.check;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The handler starts of tasks limited by a rate, measured against the rates their nodes recorded (the {@link
 * History#limits()} with a window). The engine's rate is exact at the claims: each claim holds a permit for the window
 * from its claim on the database's clock, so no window of that length holds more than N claims. A handler starts a
 * dispatch delay after its claim, and the start is what the history has; so the starts are judged over windows
 * shorter by {@link #TOLERANCE_US}. Per rate, at each start, the starts before it within that shorter span are
 * counted: the half-open window anchored at the earliest of them holds them and this start. When they and this start
 * are more than N, the start is an {@link Excess}. An attempt counts once, by its first recorded start (one attempt
 * run twice is the double-start check's); a retry is an attempt of its own, claimed with a permit of its own. Only
 * runs of instances in the store are judged, and a rate whose window is no longer than the tolerance is measured but
 * not judged.
 */
final class RatedStarts {

    /**
     * A handler's start lags its claim by the dispatch delay (the claim's commit round trip and the hand-off to its
     * pool); the engine's guarantee is on claims. Starts are judged over the rate's window less this.
     */
    static final long TOLERANCE_US = 250_000;

    /**
     * A judged start.
     *
     * @param run the run that started
     * @param lagUs how long after its claim it started: after the first RUNNING row of its attempt in the audit trail
     *     (written in the claim's transaction; a claim given back unstarted and taken again keeps its first permit);
     *     -1 when the trail has none
     * @param cutOff whether its node lost its lease, or was hit by a fault ({@link FaultWindows#nearNode}), in the
     *     window before the start: a frozen or cut-off node's handler may start long after its claim
     */
    record Start(History.Run run, long lagUs, boolean cutOff) {

        /** Whether it started later after its claim than the tolerance allows for (a busy node, say). */
        boolean slow() {
            return lagUs > TOLERANCE_US;
        }

        /** Whether it may have started later after its claim than the tolerance allows for. */
        boolean late() {
            return cutOff || slow();
        }
    }

    /**
     * A start that, with the starts before it in the judged window, is more than the rate lets start.
     *
     * @param key the rate's key, e.g. {@code rate:task:export}
     * @param permits how many may start in a window
     * @param windowUs the rate's window
     * @param starts the starts in the judged window, in order, the one beyond the rate last
     */
    record Excess(String key, int permits, long windowUs, List<Start> starts) {

        /** The start beyond the rate. */
        History.Run run() {
            return starts.get(starts.size() - 1).run();
        }

        /** Whether the starts are within the rate once the late ones are left out. */
        boolean allowed() {
            return starts.stream().filter(s -> !s.late()).count() <= permits;
        }

        /** Whether they are within it once the starts of nodes cut off or frozen are left out. */
        boolean allowedForFaults() {
            return starts.stream().filter(s -> !s.cutOff()).count() <= permits;
        }
    }

    private final List<Excess> excesses = new ArrayList<>();
    private final List<Metrics.RateJudged> judged = new ArrayList<>();
    private int starts;
    private long longestLagUs;

    private RatedStarts() {}

    static RatedStarts of(Evidence e) {
        History h = e.history();
        Map<String, List<History.Limit>> byTask = new LinkedHashMap<>();
        Map<String, History.Limit> rateOfKey = new LinkedHashMap<>();
        for (History.Limit l : h.limits()) {
            if (l.isRate()) {
                byTask.computeIfAbsent(l.task(), k -> new ArrayList<>()).add(l);
                rateOfKey.putIfAbsent(l.key(), l);
            }
        }
        RatedStarts out = new RatedStarts();
        Map<String, List<History.Run>> startsByKey = new LinkedHashMap<>();
        Set<String> attempts = new HashSet<>();
        for (History.Run r : h.runs()) {
            List<History.Limit> rates = byTask.getOrDefault(r.task(), List.of());
            if (rates.isEmpty()
                    || !h.instances().containsKey(r.instanceId())
                    || !attempts.add(r.instanceId() + "#" + r.attempt())) {
                continue;
            }
            out.starts++;
            out.longestLagUs = Math.max(out.longestLagUs, lag(h, r));
            for (History.Limit l : rates) {
                startsByKey.computeIfAbsent(l.key(), k -> new ArrayList<>()).add(r);
            }
        }
        Leases leases = new Leases(e);
        Map<String, Integer> waited = waited(h, byTask);
        rateOfKey.forEach((key, rate) -> {
            List<History.Run> of = startsByKey.getOrDefault(key, List.of());
            long windowUs = rate.window().toNanos() / 1_000;
            long judgedUs = windowUs - TOLERANCE_US;
            for (int k = 0, from = 0; k < of.size() && judgedUs > 0; k++) {
                from = earliestWithin(of, k, from, judgedUs);
                if (k - from + 1 > rate.permits()) {
                    List<Start> window = new ArrayList<>();
                    for (History.Run r : of.subList(from, k + 1)) {
                        long before = r.startUs() - windowUs;
                        boolean cutOff = leases.lostBetween(r.node(), before, r.startUs())
                                || e.windows().nearNode(r.node(), before, r.startUs());
                        window.add(new Start(r, lag(h, r), cutOff));
                    }
                    out.excesses.add(new Excess(key, rate.permits(), windowUs, List.copyOf(window)));
                }
            }
            int peak = 0;
            for (int k = 0, from = 0; k < of.size(); k++) {
                from = earliestWithin(of, k, from, windowUs);
                peak = Math.max(peak, k - from + 1);
            }
            out.judged.add(new Metrics.RateJudged(
                    key, rate.permits(), rate.window(), of.size(), peak, waited.getOrDefault(key, 0)));
        });
        return out;
    }

    /** How long after the first RUNNING row of its attempt {@code run} started; -1 when its trail has none before. */
    private static long lag(History h, History.Run run) {
        for (History.Step s : h.trail(run.instanceId())) {
            if ("RUNNING".equals(s.to()) && s.attempt() == run.attempt() && s.atUs() <= run.startUs()) {
                return run.startUs() - s.atUs();
            }
        }
        return -1;
    }

    /**
     * The index of the earliest start, from {@code from} on, whose half-open window of {@code spanUs} holds start
     * {@code k}: the window anchored there holds the starts from it to {@code k}.
     */
    private static int earliestWithin(List<History.Run> starts, int k, int from, long spanUs) {
        long at = starts.get(k).startUs();
        while (at - starts.get(from).startUs() >= spanUs) {
            from++;
        }
        return from;
    }

    /** Per rate, how many instances of its tasks waited for a permit of it at least once (the engine's audit notes). */
    private static Map<String, Integer> waited(History h, Map<String, List<History.Limit>> byTask) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (History.Instance in : h.instances().values()) {
            for (History.Limit l : byTask.getOrDefault(in.task(), List.of())) {
                if (LimitedRuns.waitedFor(h.trail(in.id()), l.key())) {
                    out.merge(l.key(), 1, Integer::sum);
                }
            }
        }
        return out;
    }

    /** Every start beyond a rate, allowed or not. */
    List<Excess> excesses() {
        return excesses;
    }

    /** What was judged of each rate, in the order the nodes recorded them. */
    List<Metrics.RateJudged> judged() {
        return judged;
    }

    /** How many starts were judged against at least one rate. */
    int starts() {
        return starts;
    }

    /** The longest a judged start lagged its claim (its attempt's first RUNNING row); 0 when none is known. */
    long longestLagUs() {
        return longestLagUs;
    }
}
