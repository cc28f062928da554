package io.ax.faults.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The violations judged against the pair's failovers: those in a lost window that AX reported (allowed, and listed),
 * those in one that it did not (counted), and for each failover what it lost against what the nodes said.
 *
 * @param reported the allowed violations, by check
 * @param unreported the counted violations that fell in a lost window, by check
 * @param each one line per failover: its kind, window, what it lost, what AX said, how the violations matched
 */
public record FailoverFindings(
        Map<String, List<Violation>> reported, Map<String, List<Violation>> unreported, List<String> each) {

    static final FailoverFindings NONE = new FailoverFindings(Map.of(), Map.of(), List.of());

    public int reportedCount() {
        return reported.values().stream().mapToInt(List::size).sum();
    }

    public int unreportedCount() {
        return unreported.values().stream().mapToInt(List::size).sum();
    }

    /**
     * Splits each check's violations: those in a lost window that AX reported are taken out of {@code violations}
     * (which keeps what counts) into the result.
     */
    static FailoverFindings judge(History h, LostWindows windows, Map<String, List<Violation>> violations) {
        Map<String, List<Violation>> reported = new LinkedHashMap<>();
        Map<String, List<Violation>> unreported = new LinkedHashMap<>();
        Map<Long, int[]> byFailover = new LinkedHashMap<>();
        for (Map.Entry<String, List<Violation>> e : violations.entrySet()) {
            List<Violation> counted = new ArrayList<>();
            for (Violation v : e.getValue()) {
                History.Failover f = windows.windowOf(v);
                if (f == null) {
                    counted.add(v);
                    continue;
                }
                int[] n = byFailover.computeIfAbsent(f.id(), k -> new int[2]);
                if (windows.reported(f, v.instanceId())) {
                    reported.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(v);
                    n[0]++;
                } else {
                    unreported
                            .computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                            .add(v);
                    counted.add(v);
                    n[1]++;
                }
            }
            e.setValue(counted);
        }
        List<String> each = new ArrayList<>();
        for (History.Failover f : h.failovers().failovers()) {
            Map<String, Integer> lost = new LinkedHashMap<>();
            for (History.LostRow r : h.failovers().lost()) {
                if (r.failoverId() == f.id()) {
                    lost.merge(r.what(), 1, Integer::sum);
                }
            }
            List<History.Said> said = windows.saidAfter(f);
            long named = said.stream()
                    .flatMap(s -> s.instanceIds().stream())
                    .distinct()
                    .count();
            int[] n = byFailover.getOrDefault(f.id(), new int[2]);
            each.add("#" + f.id() + " " + f.kind() + " at " + Times.of(f.killedUs()) + " (standby's last commit "
                    + (f.replayedUntilUs() == 0 ? "unknown" : Times.of(f.replayedUntilUs())) + ", promoted after "
                    + Times.millis(f.promotedUs() - f.killedUs())
                    + (f.backFromUs() == null
                            ? ""
                            : ", old primary back " + Times.of(f.backFromUs()) + " to " + Times.of(f.backToUs()))
                    + "): lost " + (lost.isEmpty() ? "nothing" : lost.toString()) + "; AX said "
                    + (said.isEmpty()
                            ? "nothing"
                            : said.size() + " report(s) (ERROR lines, events) on "
                                    + said.stream()
                                            .map(History.Said::node)
                                            .distinct()
                                            .toList() + " naming " + named + " instance(s)")
                    + "; violations in its window: " + n[0] + " reported, " + n[1] + " not");
        }
        return new FailoverFindings(reported, unreported, each);
    }
}
