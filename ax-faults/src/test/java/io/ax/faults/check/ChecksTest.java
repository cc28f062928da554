package io.ax.faults.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checks on small hand-written histories, for the cases where a checker bug would pass for a finding or hide one:
 * what counts as a second run, and when an overlap is allowed. Times are seconds on the database's clock.
 */
class ChecksTest {

    /** How AX's audit row begins when a node takes over the running attempt of node n2, gone. */
    private static final String TAKEN_OVER = "takeover: node n2 stopped heartbeating while it ran ";

    private static final long S = 1_000_000;

    @Test
    void anAttemptRunTwiceUnderOneAcknowledgementIsADoubleStart() {
        Histories h = new Histories().series("i1", "task", 10).trail("i1", 10, "n1", 1, "SUCCESS", 13);
        h.run("n1", 1, "i1", 1, 10.1, 11.0).run("n1", 1, "i1", 1, 11.5, 12.5);

        List<Violation> found = new DoubleStartCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).message().contains("ran 2 times under one acknowledgement"), found::toString);
    }

    @Test
    void aRetryAfterItsNodeWasTakenOverIsNoDoubleStart() {
        Histories h = new Histories().series("i1", "task", 10);
        h.step("i1", null, "CREATED", "n1", 0, 9)
                .step("i1", "CREATED", "SCHEDULED", "n1", 0, 9)
                .step("i1", "SCHEDULED", "DISPATCHED", "n1", 1, 10)
                .step("i1", "DISPATCHED", "RUNNING", "n2", 1, 10)
                .step(
                        "i1",
                        "RUNNING",
                        "FAILED",
                        "n1",
                        1,
                        14,
                        TAKEN_OVER + "attempt 1 (it crashed, froze or lost the store)")
                .step("i1", "FAILED", "RETRYING", "n1", 1, 14, "attempt 2 now: takeover 1 of at most 3")
                .step("i1", "RETRYING", "DISPATCHED", "n1", 2, 14)
                .step("i1", "DISPATCHED", "RUNNING", "n3", 2, 14.1)
                .step("i1", "RUNNING", "SUCCESS", "n3", 2, 15);
        h.run("n2", 2, "i1", 1, 10.1, 16).run("n3", 3, "i1", 2, 14.2, 14.9);
        Evidence e = h.evidence();

        assertEquals(List.of(), new DoubleStartCheck().check(e));
        assertEquals(List.of(), new AttemptCheck().check(e));
        assertEquals(List.of(), new TakeoverCheck().check(e));
        assertEquals(List.of(), new TrailCheck().check(e));
    }

    @Test
    void aNodesOwnRestartRunsTheAttemptAgainOnceAndATakeoverUsedUpEndsDead() {
        Histories h = new Histories().series("i1", "task", 10).delayed("i2", "task", 20, null, "DEAD");
        // n2 restarted and found attempt 1 RUNNING: it runs it again as attempt 2
        h.step("i1", null, "CREATED", "n1", 0, 9)
                .step("i1", "CREATED", "SCHEDULED", "n1", 0, 9)
                .step("i1", "SCHEDULED", "RUNNING", "n2", 1, 10)
                .step(
                        "i1",
                        "RUNNING",
                        "FAILED",
                        "n2",
                        1,
                        14,
                        "takeover: node n2 stopped while running attempt 1"
                                + " (found RUNNING when the node started again)")
                .step("i1", "FAILED", "RETRYING", "n2", 1, 14, "attempt 2 now: takeover 1 of at most 3")
                .step("i1", "RETRYING", "RUNNING", "n2", 2, 14.1)
                .step("i1", "RUNNING", "SUCCESS", "n2", 2, 15);
        h.run("n2", 2, "i1", 1, 10.1, 12).run("n2", 3, "i1", 2, 14.2, 14.9);
        h.process("n2", 2, 0, 12.5).process("n2", 3, 13, null);
        // a second instance whose takeovers were used up: DEAD, not run again
        h.takenOver(
                        "i2",
                        "n3",
                        20,
                        24,
                        TAKEN_OVER.replace("n2", "n3") + "attempt 1 (it crashed, froze or lost the store)")
                .step(
                        "i2",
                        "FAILED",
                        "DEAD",
                        "n1",
                        1,
                        24,
                        "takeovers used up: the running attempt was taken over from"
                                + " its node 4 time(s), at most 3 run again");
        h.run("n3", 4, "i2", 1, 20.1, 21);
        Evidence e = h.evidence();

        assertEquals(List.of(), new DoubleStartCheck().check(e));
        assertEquals(List.of(), new AttemptCheck().check(e));
        assertEquals(List.of(), new TrailCheck().check(e));
        assertEquals(List.of(), new FinalityCheck().check(e));
        assertTrue(e.segments().of("i1").get(0).takenOver(), "a restart's takeover is its node's loss");
    }

    @Test
    void aRunningAttemptTakenOverWhileItsNodeHeldItsLeaseIsATakeoverOfALiveNode() {
        Histories h = new Histories().series("i1", "task", 10);
        h.takenOver("i1", "n2", 10, 11, TAKEN_OVER + "attempt 1 (it crashed, froze or lost the store)");
        h.run("n2", 2, "i1", 1, 10.1, 13);
        h.beats("n2", 6, 7, 8, 9, 10, 10.5, 11, 11.5, 12);

        List<Violation> found = new TakeoverCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).message().contains("held its lease"), found::toString);
    }

    @Test
    void runsOfASeriesThatOverlapWhileTheFirstNodeHeldItsLeaseBreakTheSeries() {
        Histories h = twoOverlappingRuns();
        h.beats("n1", 9, 10, 11, 12, 13, 14, 15);

        List<Violation> found = new OverlapCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).message().contains("held its lease"), found::toString);
        assertEquals("i2", found.get(0).instanceId(), "the later run's instance");
        assertEquals("i1", found.get(0).relatedId(), "the run it overlapped, whose trail the report shows too");
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        new Findings(h.evidence(), Map.of("overlap", found), Map.of(), Metrics.of(h.evidence()))
                .printViolations(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8), "-");
        String report = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(report.contains("the other instance:\n    instance i1 slow"), report);
    }

    @Test
    void runsOfASeriesThatOverlapAfterTheFirstNodeLostItsLeaseAreAllowedAndCounted() {
        Histories h = twoOverlappingRuns();
        h.beats("n1", 9, 10, 13.5, 14, 15); // frozen from 10 to 13.5: the lease (2.5 s) lapsed at 12.5

        Evidence e = h.evidence();

        assertEquals(List.of(), new OverlapCheck().check(e));
        assertEquals(1, Metrics.of(e).allowedOverlaps());
    }

    @Test
    void aLeaseLapsesWhenTheGapBetweenHeartbeatsReachesTheLeaseOrTheNodeLeaves() {
        List<History.Beat> steady = List.of(beat('U', 1), beat('U', 2), beat('U', 3));
        assertEquals(false, Leases.lapsed(steady, (long) (1.5 * S), 3 * S, (long) (2.5 * S)));
        assertEquals(true, Leases.lapsed(steady, (long) (1.5 * S), (long) (5.5 * S), (long) (2.5 * S)));
        List<History.Beat> left = List.of(beat('U', 1), beat('D', 2), beat('I', 3));
        assertEquals(true, Leases.lapsed(left, (long) (1.5 * S), 3 * S, (long) (2.5 * S)));
    }

    @Test
    void aTakeoverIsTimedFromTheExitOfTheProcessThatStartedItNotFromAnEarlierBreakOfItsNode() {
        Histories h = new Histories().series("i1", "task", 10);
        h.takenOver("i1", "n2", 10, 13.5, TAKEN_OVER + "attempt 1 (it crashed, froze or lost the store)");
        // n2 froze from 2 to 6, came back, was killed at 10.5 before its handler recorded a run, and its next
        // process heartbeats under the same name from 11 on
        h.process("n2", 2, 0, 10.5).process("n2", 3, 11, null);
        h.beats("n2", 1, 2, 6, 7, 8, 9, 10, 11.2, 11.7, 12.2, 12.7, 13.2);

        Metrics.Spread takeovers = Metrics.of(h.evidence()).runningTakeovers();

        assertEquals(1, takeovers.count());
        assertEquals(3 * S, takeovers.maxUs());
    }

    @Test
    void aTrailWithAStepThatIsNoArrowOfTheStateMachineIsIllegal() {
        Histories h = new Histories().series("i1", "task", 10);
        h.step("i1", null, "CREATED", "n1", 0, 9)
                .step("i1", "CREATED", "SCHEDULED", "n1", 0, 9)
                .step("i1", "SCHEDULED", "SUCCESS", "n1", 1, 10);

        List<Violation> found = new TrailCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).message().contains("no arrow"), found::toString);
    }

    @Test
    void aClaimInOneWriteAndAnEarlierVersionsTwoAreBothPathsOfTheStateMachine() {
        Histories h = new Histories().series("i1", "task", 10).series("i2", "task", 20);
        h.step("i1", null, "CREATED", "n1", 0, 9)
                .step("i1", "CREATED", "SCHEDULED", "n1", 0, 9)
                .step("i1", "SCHEDULED", "RUNNING", "n1", 1, 10)
                .step("i1", "RUNNING", "FAILED", "n1", 1, 11)
                .step("i1", "FAILED", "RETRYING", "n1", 1, 11)
                .step("i1", "RETRYING", "RUNNING", "n1", 2, 12)
                .step("i1", "RUNNING", "SUCCESS", "n1", 2, 13)
                .step("i2", null, "CREATED", "n1", 0, 19)
                .step("i2", "CREATED", "SCHEDULED", "n1", 0, 19)
                .step("i2", "SCHEDULED", "DISPATCHED", "n1", 1, 20)
                .step("i2", "DISPATCHED", "RUNNING", "n2", 1, 20)
                .step("i2", "RUNNING", "SUCCESS", "n2", 1, 21);

        List<Violation> found = new TrailCheck().check(h.evidence());

        assertTrue(found.isEmpty(), found::toString);
    }

    @Test
    void aLedgerRowIsThereExactlyWhenItsInstanceSucceededOnceByItsLastAttempt() {
        Histories h = new Histories()
                .booking("ok", "SUCCESS", 2)
                .booked("ok", 2)
                .booking("dead", "DEAD", 3)
                .booking("open", "RUNNING", 1)
                .booking("leaked", "DEAD", 1)
                .booked("leaked", 1)
                .booking("twice", "SUCCESS", 2)
                .booked("twice", 1)
                .booked("twice", 2)
                .booking("missing", "SUCCESS", 1)
                .booked("ghost", 1);

        List<Violation> found = new LedgerCheck().check(h.evidence());

        assertEquals(
                List.of("ghost", "leaked", "missing", "twice"),
                found.stream().map(Violation::instanceId).sorted().toList(),
                found::toString);
    }

    @Test
    void threeRunsAtOnceOfATaskLimitedToTwoOnNodesHoldingTheirLeasesExceedItsLimit() {
        Histories h = threeRunsOfALimitTwoTask();
        h.beats("n1", 9, 10, 11, 12, 13).beats("n2", 9, 10, 11, 12, 13).beats("n3", 9, 10, 11, 12, 13);

        List<Violation> found = new LimitCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        Violation v = found.get(0);
        assertEquals("d3", v.instanceId(), "the run that started beyond the limit");
        assertTrue(v.message().startsWith("task:export (2 at once)"), v.message());
        assertTrue(v.message().contains("2 run(s) of it went on"), v.message());
        assertEquals(0, Metrics.of(h.evidence()).limits().allowedExcesses());
    }

    @Test
    void aRunBeyondALimitIsAllowedAndCountedWhenTheNodeOfARunGoingHadLostItsLease() {
        Histories h = threeRunsOfALimitTwoTask();
        // n1 froze from 10 to 13.5: its lease (2.5 s) lapsed at 12.5, before d3 started at 12.6
        h.beats("n1", 9, 10, 13.5).beats("n2", 9, 10, 11, 12, 13).beats("n3", 9, 10, 11, 12, 13);
        Evidence e = h.evidence();

        assertEquals(List.of(), new LimitCheck().check(e));
        Metrics.LimitsJudged limits = Metrics.of(e).limits();
        assertEquals(1, limits.allowedExcesses());
        assertEquals((long) (0.4 * S), limits.longestAllowedExcessUs(), "d3 overlapped d1 until 13");
        assertEquals(List.of(new Metrics.LimitJudged("task:export", 2, 3, 1, 2, 0)), limits.each());
    }

    @Test
    void twoTasksSharingAMutexOfTheKeyPrefixMayOverlapOnlyForDifferentPrefixes() {
        Histories h = new Histories()
                .limit("debit", "mutex:${keyPrefix}", 1)
                .limit("credit", "mutex:${keyPrefix}", 1)
                .delayed("a", "debit", 10, "acct-1:1", "SUCCESS")
                .delayed("b", "credit", 10, "acct-2:1", "SUCCESS")
                .delayed("c", "credit", 10, "acct-1:2", "SUCCESS");
        h.run("n1", 1, "a", 1, 10.1, 10.5).run("n2", 2, "b", 1, 10.2, 10.6).run("n3", 3, "c", 1, 10.3, 10.4);
        h.beats("n1", 9, 10, 11).beats("n2", 9, 10, 11).beats("n3", 9, 10, 11);

        List<Violation> found = new LimitCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        assertEquals("c", found.get(0).instanceId());
        assertEquals("a", found.get(0).relatedId());
        assertTrue(
                found.get(0).message().startsWith("mutex:acct-1 (1 at once)"),
                found.get(0).message());
    }

    @Test
    void runsOfATaskWhoseLimitIsNotRecordedAreNotJudged() {
        Histories h = threeRunsOfALimitTwoTask();
        Histories unlimited = new Histories();
        unlimited.instances.putAll(h.instances);
        unlimited.runs.addAll(h.runs);

        assertEquals(List.of(), new LimitCheck().check(unlimited.evidence()));
        assertEquals(0, Metrics.of(unlimited.evidence()).limits().runs());
    }

    @Test
    void aMutexKeyIsTheTemplateWithTheInstancesKeyOrItsPrefixAndNoneForAParameter() {
        assertEquals("mutex:acct-1", LimitedRuns.resolve("mutex:${keyPrefix}", "acct-1:42"));
        assertEquals("mutex:c-acct-1:42", LimitedRuns.resolve("mutex:c-${key}", "acct-1:42"));
        assertEquals("mutex:plain", LimitedRuns.resolve("mutex:${keyPrefix}", "plain"));
        assertEquals("mutex:", LimitedRuns.resolve("mutex:${keyPrefix}", null));
        assertEquals("task:export", LimitedRuns.resolve("task:export", "acct-1:42"));
        assertEquals(null, LimitedRuns.resolve("mutex:${customer}", "acct-1:42"));
    }

    @Test
    void aLimitedInstanceThatWaitedForAPermitAndNeverRanIsLost() {
        Histories h = new Histories().limit("export", "task:export", 2).delayed("w", "export", 10, null, "SCHEDULED");
        h.step("w", null, "CREATED", "n1", 0, 9)
                .step("w", "CREATED", "SCHEDULED", "n1", 0, 9)
                .step(
                        "w",
                        "SCHEDULED",
                        "SCHEDULED",
                        "n2",
                        1,
                        10,
                        "waits for a permit of task:export (2 of 2 held" + " by x, y)");
        Evidence e = h.evidence();

        assertEquals(
                List.of("w"),
                new DelayedCheck().check(e).stream().map(Violation::instanceId).toList());
        assertEquals(
                List.of("w"),
                new FinalityCheck().check(e).stream().map(Violation::instanceId).toList());
        assertEquals(List.of(), new TrailCheck().check(e), "a wait is a note of the trail, not a step");
        assertEquals(1, Metrics.of(e).limits().each().get(0).waited());
    }

    @Test
    void startsOfARatedTaskWithinItsRateLessTheDispatchToleranceBreakNothing() {
        // 2 per second, judged over 750 ms: 10.75 is in the window of 10.4, not of 10.0 (half-open). Three starts fall
        // in the full second from 10.0, as starts that lag their claims may: measured, not judged
        Histories h = ratedStarts(10.0, 10.4, 10.75, 11.5);
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", steady());
        Evidence e = h.evidence();

        assertEquals(List.of(), new RateCheck().check(e));
        Metrics m = Metrics.of(e);
        assertEquals(
                List.of(new Metrics.RateJudged("rate:task:export", 2, Duration.ofSeconds(1), 4, 3, 0)),
                m.rates().each());
        assertEquals(0, m.rates().allowedExcesses());
        assertEquals(List.of(), new LimitCheck().check(e), "runs 3 at once: a rate limits starts, not runs at once");
        assertEquals(0, m.limits().runs());
    }

    @Test
    void startsBeyondARateOnNodesNeitherCutOffNorFrozenExceedItNamingTheWindow() {
        Histories h = ratedStarts(10.0, 10.3, 10.6);
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", steady());
        h.fault("redis-restart", "redis", 9, 10.5); // none of their nodes: it explains nothing

        List<Violation> found = new RateCheck().check(h.evidence());

        assertEquals(1, found.size(), found::toString);
        Violation v = found.get(0);
        assertEquals("r3", v.instanceId(), "the start beyond the rate");
        assertEquals("r1", v.relatedId(), "the first start of the window");
        assertTrue(
                v.message()
                        .startsWith("rate:task:export (2 per 1000 ms): 3 handler starts of export in [00:00:10.000,"
                                + " 00:00:10.750)"),
                v.message());
        assertTrue(v.message().contains("0 of them late"), v.message());
        assertTrue(v.message().contains("r3 (attempt 1) on n3 at 00:00:10.600, 10 ms after its claim"), v.message());
        assertEquals(0, Metrics.of(h.evidence()).rates().allowedExcesses());
    }

    @Test
    void aStartBeyondARateIsAllowedAndCountedApartWhenItCameLaterAfterItsClaimThanTheTolerance() {
        // r1 started 400 ms after its claim, on a node neither cut off nor frozen: a busy machine
        Histories h = new Histories().limit("export", "rate:task:export", 2, Duration.ofSeconds(1));
        rated(h, 1, "n1", 9.6, 10.0);
        rated(h, 2, "n2", 10.29, 10.3);
        rated(h, 3, "n3", 10.59, 10.6);
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", steady());
        Evidence e = h.evidence();

        assertEquals(List.of(), new RateCheck().check(e));
        Metrics.RatesJudged rates = Metrics.of(e).rates();
        assertEquals(1, rates.allowedExcesses());
        assertEquals(1, rates.allowedForSlowStarts());
        assertEquals((long) (0.4 * S), rates.longestLagUs());
    }

    @Test
    void aStartIsTimedFromItsAttemptsFirstClaimWhichKeepsItsPermitWhenGivenBackUnstarted() {
        // r1's first claim at 9.2 took the permit it kept when it was claimed again at 9.99
        Histories h = new Histories().limit("export", "rate:task:export", 2, Duration.ofSeconds(1));
        rated(h, 1, "n1", 9.2, 10.0);
        h.step("r1", "RUNNING", "SCHEDULED", "n1", 1, 9.3, "returned: it did not start attempt 1")
                .step("r1", "SCHEDULED", "RUNNING", "n1", 1, 9.99);
        rated(h, 2, "n2", 10.29, 10.3);
        rated(h, 3, "n3", 10.59, 10.6);
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", steady());

        assertEquals(List.of(), new RateCheck().check(h.evidence()));
        assertEquals((long) (0.8 * S), Metrics.of(h.evidence()).rates().longestLagUs());
    }

    @Test
    void aStartBeyondARateIsAllowedAndCountedWhenItsNodeWasHitByAFaultJustBefore() {
        Histories h = ratedStarts(10.0, 10.3, 10.6);
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", steady());
        // n3's database traffic blackholed until 9.5, shorter than the lease: its claim's answer may come late
        h.fault("partition", "n3", 8, 9.5);
        Evidence e = h.evidence();

        assertEquals(List.of(), new RateCheck().check(e));
        assertEquals(1, Metrics.of(e).rates().allowedExcesses());
        assertEquals(0, Metrics.of(e).rates().allowedForSlowStarts());
    }

    @Test
    void aStartBeyondARateIsAllowedWhenItsNodeHadLostItsLeaseJustBefore() {
        Histories h = ratedStarts(10.0, 10.3, 10.6);
        // n3 froze from 7 to 10.55: its lease (2.5 s) lapsed at 9.5, within the second before its start
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", 6, 6.5, 7, 10.7, 11.2);
        Evidence e = h.evidence();

        assertEquals(List.of(), new RateCheck().check(e));
        assertEquals(1, Metrics.of(e).rates().allowedExcesses());
    }

    @Test
    void anAttemptRunTwiceCountsOnceAgainstItsRate() {
        Histories h = ratedStarts(10.0, 10.3);
        h.beats("n1", steady()).beats("n2", steady()).beats("n3", steady());
        h.run("n3", 3, "r2", 1, 10.5, 12.5); // the double-start check's, not a third claim

        assertEquals(List.of(), new RateCheck().check(h.evidence()));
        assertEquals(2, Metrics.of(h.evidence()).rates().starts());
    }

    /**
     * Runs of a task with a rate of 2 per second, r1, r2, ... starting at {@code at} on n1, n2, n3, n1, ..., each
     * 10 ms after its claim.
     */
    private static Histories ratedStarts(double... at) {
        Histories h = new Histories().limit("export", "rate:task:export", 2, Duration.ofSeconds(1));
        for (int i = 0; i < at.length; i++) {
            rated(h, i + 1, "n" + (i % 3 + 1), at[i] - 0.01, at[i]);
        }
        return h;
    }

    /** Instance r{@code n} of the rated task, claimed by {@code node} at {@code claim}, run from {@code start}. */
    private static void rated(Histories h, int n, String node, double claim, double start) {
        String id = "r" + n;
        h.delayed(id, "export", 9, null, "SUCCESS")
                .step(id, "SCHEDULED", "RUNNING", node, 1, claim)
                .run(node, Long.parseLong(node.substring(1)), id, 1, start, start + 2);
    }

    /** A heartbeat every half second from 5 to 15. */
    private static double[] steady() {
        double[] at = new double[21];
        for (int i = 0; i < at.length; i++) {
            at[i] = 5 + i * 0.5;
        }
        return at;
    }

    /** Three runs of a task limited to 2 on three nodes, d3 starting at 12.6 while d1 and d2 go on until 13. */
    private static Histories threeRunsOfALimitTwoTask() {
        Histories h = new Histories()
                .limit("export", "task:export", 2)
                .delayed("d1", "export", 10, null, "SUCCESS")
                .delayed("d2", "export", 10, null, "SUCCESS")
                .delayed("d3", "export", 10, null, "SUCCESS");
        return h.run("n1", 1, "d1", 1, 10.1, 13).run("n2", 2, "d2", 1, 10.2, 13).run("n3", 3, "d3", 1, 12.6, 13.2);
    }

    private static Histories twoOverlappingRuns() {
        Histories h = new Histories().series("i1", "slow", 10).series("i2", "slow", 12);
        h.trail("i1", 10, "n1", 1, "SUCCESS", 14).trail("i2", 13, "n2", 1, "SUCCESS", 15);
        return h.run("n1", 1, "i1", 1, 10.1, 14).run("n2", 2, "i2", 1, 13.1, 14.5);
    }

    private static History.Beat beat(char op, double at) {
        return new History.Beat("n", op, (long) (at * S));
    }
}
