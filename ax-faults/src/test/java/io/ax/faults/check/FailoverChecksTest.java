package io.ax.faults.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judging of failovers of the pair on hand-written histories: which violations fall in a lagging failover's lost
 * window, which of those AX reported (allowed) and which it did not (counted), and that a failover to a caught-up
 * standby allows nothing. Times are seconds on the database's clock; the standby's last commit is at 20, the primary
 * stopped at 24, the standby promoted at 25.
 */
class FailoverChecksTest {

    @Test
    void aViolationOfAnInstanceThatLostARowIsInTheLostWindowAndAllowedOnlyWhenAxNamedIt() {
        Histories h = lagging().lost(1, "transition", "i1", "RUNNING -> SUCCESS by n1, attempt 1", 22);
        Violation late = new Violation("double-start", "i1", "ran twice", 60 * 1_000_000L);

        assertEquals(1, judged(h.said("n2", 26, "i9"), late).unreportedCount(), "AX named another instance");
        FailoverFindings named = judged(
                lagging()
                        .lost(1, "transition", "i1", "RUNNING -> SUCCESS by n1, attempt 1", 22)
                        .said("n2", 26, "i9", "i1"),
                late);
        assertEquals(1, named.reportedCount());
        assertEquals(0, named.unreportedCount());
    }

    @Test
    void aViolationInTheWindowOfTimeIsInTheLostWindowAndOneLongAfterIsNot() {
        Violation during = new Violation("attempt-twice", "i2", "again", 23 * 1_000_000L);
        Violation after = new Violation("attempt-twice", "i3", "again", 60 * 1_000_000L);
        Map<String, List<Violation>> violations = new LinkedHashMap<>();
        violations.put("attempt-twice", new ArrayList<>(List.of(during, after)));
        Histories h = lagging().said("n1", 27, "i2");

        FailoverFindings f = judge(h, violations);

        assertEquals(List.of(during), f.reported().get("attempt-twice"));
        assertEquals(List.of(after), violations.get("attempt-twice"), "counted: outside every lost window");
        assertTrue(f.each().get(0).contains("1 reported, 0 not"), f.each()::toString);
    }

    @Test
    void aViolationAboutNoInstanceIsReportedByAnySayingAfterTheFailover() {
        Violation order = new Violation("order", null, "order 7 still OPEN", 24 * 1_000_000L);

        assertEquals(1, judged(lagging(), order).unreportedCount(), "AX said nothing");
        assertEquals(1, judged(lagging().said("n3", 25.5), order).reportedCount());
        assertEquals(1, judged(lagging().said("n3", 5), order).unreportedCount(), "said before the failover");
    }

    @Test
    void aFailoverToACaughtUpStandbyAllowsNoViolation() {
        Histories h = new Histories()
                .failover(1, "pg-failover", 24, 24, 25)
                .lost(1, "transition", "i1", "RUNNING -> SUCCESS", 24)
                .said("n1", 26, "i1");
        Violation v = new Violation("double-start", "i1", "ran twice", 24_500_000L);

        FailoverFindings f = judged(h, v);

        assertEquals(0, f.reportedCount());
        assertEquals(0, f.unreportedCount(), "no lost window: the violation counts as any other");
    }

    @Test
    void aDelayedTaskOrAnOrderTheOldTimelineHadIsLostWorkAfterALaggingFailoverOnly() {
        Histories h = lagging()
                .lost(1, "instance", "d1", "faults-delayed (DELAYED)", 21)
                .lost(1, "instance", "s1", "faults-cron (SERIES)", 21)
                .lost(1, "order", "c1", "order 12 (OPEN)", 20)
                .lost(1, "transition", "d2", "SCHEDULED -> RUNNING", 22)
                .failover(2, "pg-failover", 40, 40, 41)
                .lost(2, "instance", "d3", "faults-delayed (DELAYED)", 40);

        List<Violation> found = new LostWorkCheck().check(h.evidence());

        assertEquals(
                List.of("d1", "c1"), found.stream().map(Violation::instanceId).toList(), found::toString);
        assertTrue(found.get(0).message().contains("missing on the one promoted"), found::toString);
    }

    @Test
    void workWhoseClientWasNeverAnsweredIsNotLostWorkThoughTheOldTimelineHadIt() {
        // the old primary committed d2 and order 13, but the failover cut off the commits' answers: the clients got
        // errors, and were never told that the work was accepted
        Histories h = lagging()
                .lost(1, "instance", "d1", "faults-delayed (DELAYED)", 21)
                .lost(1, "instance", "d2", "faults-delayed (DELAYED)", 23.9)
                .lost(1, "order", "c1", "order 12 (OPEN)", 20)
                .lost(1, "order", "c2", "order 13 (OPEN)", 20)
                .acked("delayed:d1", "order:12");

        List<Violation> found = new LostWorkCheck().check(h.evidence());

        assertEquals(
                List.of("d1", "c1"), found.stream().map(Violation::instanceId).toList(), found::toString);
    }

    /** A failover to a standby that lagged: last commit at 20, primary stopped at 24, promoted at 25. */
    private static Histories lagging() {
        return new Histories().failover(1, "pg-lagging-failover", 20, 24, 25);
    }

    private static FailoverFindings judged(Histories h, Violation v) {
        Map<String, List<Violation>> violations = new LinkedHashMap<>();
        violations.put(v.check(), new ArrayList<>(List.of(v)));
        return judge(h, violations);
    }

    private static FailoverFindings judge(Histories h, Map<String, List<Violation>> violations) {
        Evidence e = h.evidence();
        return FailoverFindings.judge(e.history(), new LostWindows(e.history(), e.judgement()), violations);
    }
}
