package io.ax.faults.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runs of limited tasks, measured against the limits of attempts at once their nodes recorded ({@link
 * History#limits()}; the rates are {@link RatedStarts}'). A run holds a permit of each limit of its task, keyed as the
 * engine keys it: {@code task:<name>}, {@code group:<name>}, or a mutex's template with {@code ${key}} replaced by its
 * instance's key and {@code ${keyPrefix}} by that key up to its first {@code :}. Per key, at each run's start, the
 * runs of that key still going are counted; when they and the run are more than the limit's permits, the start is an
 * {@link Excess}. Only runs of instances in the store are judged (a limited task's are PERSISTENT), and a mutex naming
 * a task parameter, which the history does not hold, is not.
 */
final class LimitedRuns {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    /** How the engine's audit row of a wait begins, before the key it waits for. */
    private static final String WAITS_FOR = "waits for a permit of ";

    /**
     * A run that started while its limit's permits were all taken by runs going.
     *
     * @param key the limit's key, a mutex's resolved
     * @param permits how many runs may hold it at once
     * @param run the run that started
     * @param held the runs going whose nodes held their lease from their start to this run's
     * @param lapsed the runs going whose nodes lost their lease in between: the leader may have taken them over
     * @param overlapUs how long the run overlapped the longest-going of them
     */
    record Excess(
            String key,
            int permits,
            History.Run run,
            List<History.Run> held,
            List<History.Run> lapsed,
            long overlapUs) {

        /** Whether the run is within the permits once the runs of nodes that lost their lease are left out. */
        boolean allowed() {
            return 1 + held.size() <= permits;
        }
    }

    private final List<Excess> excesses = new ArrayList<>();
    private final List<Metrics.LimitJudged> judged = new ArrayList<>();
    private int runs;

    private LimitedRuns() {}

    static LimitedRuns of(Evidence e) {
        History h = e.history();
        List<History.Limit> atOnce =
                h.limits().stream().filter(l -> !l.isRate()).toList();
        Map<String, List<History.Limit>> byTask = new LinkedHashMap<>();
        for (History.Limit l : atOnce) {
            byTask.computeIfAbsent(l.task(), k -> new ArrayList<>()).add(l);
        }
        // by resolved key (what the engine's permits are of): the runs in start order, and the limit it came from.
        // A limit shared by several tasks (a group, a mutex) has a row per task and one key for all of them
        Map<String, List<History.Run>> runsByKey = new LinkedHashMap<>();
        Map<String, History.Limit> limitOfKey = new LinkedHashMap<>();
        LimitedRuns out = new LimitedRuns();
        for (History.Run r : h.runs()) {
            History.Instance in = h.instances().get(r.instanceId());
            boolean judgedHere = false;
            for (History.Limit l : in == null ? List.<History.Limit>of() : byTask.getOrDefault(r.task(), List.of())) {
                String key = resolve(l.key(), in.key());
                if (key != null) {
                    runsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
                    limitOfKey.putIfAbsent(key, l);
                    judgedHere = true;
                }
            }
            out.runs += judgedHere ? 1 : 0;
        }
        Leases leases = new Leases(e);
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (History.Limit l : atOnce) {
            tallies.putIfAbsent(l.key(), new Tally(l.permits()));
        }
        runsByKey.forEach((key, runs) -> {
            History.Limit limit = limitOfKey.get(key);
            Tally tally = tallies.get(limit.key());
            tally.runs += runs.size();
            tally.keys++;
            for (Concurrent.Start s : Concurrent.starts(h, runs)) {
                History.Run b = s.run();
                List<History.Run> held = new ArrayList<>();
                List<History.Run> lapsed = new ArrayList<>();
                long overlap = 0;
                for (History.Run a : s.going()) {
                    (leases.lostDuring(a, b.startUs()) ? lapsed : held).add(a);
                    overlap = Math.max(overlap, Math.min(h.endOf(a), h.endOf(b)) - b.startUs());
                }
                tally.peak = Math.max(tally.peak, 1 + held.size());
                if (1 + s.going().size() > limit.permits()) {
                    out.excesses.add(new Excess(key, limit.permits(), b, held, lapsed, overlap));
                }
            }
        });
        Map<String, Integer> waited = waited(h, byTask);
        tallies.forEach((limit, t) -> out.judged.add(
                new Metrics.LimitJudged(limit, t.permits, t.runs, t.keys, t.peak, waited.getOrDefault(limit, 0))));
        return out;
    }

    /** What is counted of one limit as recorded, over all its keys. */
    private static final class Tally {
        final int permits;
        int runs;
        int keys;
        int peak;

        Tally(int permits) {
            this.permits = permits;
        }
    }

    /** Every start beyond a limit's permits, allowed or not. */
    List<Excess> excesses() {
        return excesses;
    }

    /** What was judged of each limit, in the order the nodes recorded them. */
    List<Metrics.LimitJudged> judged() {
        return judged;
    }

    /** How many runs were judged against at least one limit. */
    int runs() {
        return runs;
    }

    /**
     * The key of a limit as the engine resolves it for an instance with key {@code instanceKey} (null for none: an
     * empty key); null when the limit names a variable other than the key, a task parameter the history lacks.
     */
    static String resolve(String limit, String instanceKey) {
        String key = instanceKey == null ? "" : instanceKey;
        int colon = key.indexOf(':');
        Matcher m = VARIABLE.matcher(limit);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "key" -> key;
                case "keyPrefix" -> colon < 0 ? key : key.substring(0, colon);
                default -> null;
            };
            if (value == null) {
                return null;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * Per limit as recorded, how many instances of its tasks waited for a permit of it at least once: the audit note
     * the engine writes for a wait names the resolved key.
     */
    private static Map<String, Integer> waited(History h, Map<String, List<History.Limit>> byTask) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (History.Instance in : h.instances().values()) {
            for (History.Limit l : byTask.getOrDefault(in.task(), List.of())) {
                String key = resolve(l.key(), in.key());
                if (key != null && waitedFor(h.trail(in.id()), key)) {
                    out.merge(l.key(), 1, Integer::sum);
                }
            }
        }
        return out;
    }

    /** Whether {@code trail} has the engine's audit note of a wait for a permit of {@code key}, a resolved key. */
    static boolean waitedFor(List<History.Step> trail, String key) {
        for (History.Step s : trail) {
            if (s.to().equals(s.from()) && s.reason() != null && s.reason().startsWith(WAITS_FOR + key + " ")) {
                return true;
            }
        }
        return false;
    }
}
