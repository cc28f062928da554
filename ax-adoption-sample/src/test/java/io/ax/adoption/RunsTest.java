package io.ax.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.adoption.Runs.Run;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The judge of the replicas' runs finds a fire run twice, a fire not run, an overlap and a late fixed delay. */
class RunsTest {

    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");
    private static final Duration FAILOVER = Duration.ofSeconds(4);

    private static Run run(long startMillis, long lengthMillis) {
        return new Run(T0.plusMillis(startMillis), T0.plusMillis(startMillis + lengthMillis), "n1", null, null);
    }

    /** A run every 5 s, 20 ms late, lasting 50 ms, from T0 to T0 + 60 s. */
    private static List<Run> everyFiveSeconds() {
        List<Run> runs = new ArrayList<>();
        for (long t = 0; t < 60_000; t += 5_000) {
            runs.add(run(t + 20, 50));
        }
        return runs;
    }

    @Test
    void oneRunPerCronFireIsClean() {
        Runs.Verdict verdict = new Runs("job", everyFiveSeconds())
                .cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), null, FAILOVER);
        assertThat(verdict.clean()).as(verdict.toString()).isTrue();
        assertThat(verdict.fires()).isEqualTo(12);
        assertThat(verdict.runs()).isEqualTo(12);
    }

    @Test
    void aSecondRunOfAFireAndAFireWithoutARunAreFound() {
        List<Run> runs = everyFiveSeconds();
        runs.add(run(10_400, 50)); // a late node runs the fire of 10 s again
        runs.remove(8); // nothing ran the fire of 40 s
        Runs.Verdict verdict =
                new Runs("job", runs).cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), null, FAILOVER);
        assertThat(verdict.twice()).containsExactly(T0.plusSeconds(10));
        assertThat(verdict.missed()).containsExactly(T0.plusSeconds(40));
        assertThat(verdict.overlaps()).isEmpty();
    }

    @Test
    void aroundAKillOnlyTheCountIsHeldAndAnExtraRunThereIsStillFound() {
        List<Run> runs = everyFiveSeconds();
        runs.set(6, run(33_000, 50)); // the fire of 30 s taken over, 3 s late: it belongs to its own fire
        Instant kill = T0.plusSeconds(29);
        Runs clean = new Runs("job", runs);
        assertThat(clean.cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), kill, FAILOVER)
                        .clean())
                .isTrue();
        runs.add(run(31_000, 50));
        Runs.Verdict doubled =
                new Runs("job", runs).cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), kill, FAILOVER);
        assertThat(doubled.twice()).containsExactly(kill);
    }

    @Test
    void overlappingRunsAreFound() {
        List<Run> runs = everyFiveSeconds();
        runs.add(new Run(T0.plusMillis(15_030), T0.plusMillis(15_100), "n2", null, null));
        assertThat(new Runs("job", runs)
                        .fixedRate(Duration.ofSeconds(5), T0, T0.plusSeconds(60), null, FAILOVER)
                        .overlaps())
                .hasSize(1);
    }

    @Test
    void aFixedRateIsJudgedInItsOwnPhase() {
        List<Run> runs = new ArrayList<>();
        for (long t = 700; t < 60_000; t += 2_000) {
            runs.add(run(t + 15, 40));
        }
        Runs.Verdict verdict =
                new Runs("rate", runs).fixedRate(Duration.ofSeconds(2), T0, T0.plusSeconds(60), null, FAILOVER);
        assertThat(verdict.clean()).as(verdict.toString()).isTrue();
        runs.remove(10);
        assertThat(new Runs("rate", runs)
                        .fixedRate(Duration.ofSeconds(2), T0, T0.plusSeconds(60), null, FAILOVER)
                        .missed())
                .hasSize(1);
    }

    @Test
    void aFixedRateWhoseFirstRunWasLateIsJudgedInTheRightPhase() {
        List<Run> runs = new ArrayList<>();
        runs.add(run(700 + 40, 40)); // the first run started 40 ms late
        for (long t = 2_700; t < 60_000; t += 2_000) {
            runs.add(run(t + 5 + (t / 2_000) % 20, 40)); // the others 5 to 24 ms late
        }
        Runs.Verdict verdict =
                new Runs("rate", runs).fixedRate(Duration.ofSeconds(2), T0, T0.plusSeconds(60), null, FAILOVER);
        assertThat(verdict.clean()).as(verdict.toString()).isTrue();
    }

    @Test
    void aFixedDelayRunTooSoonOrTooLateIsFound() {
        List<Run> runs = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 10; i++) {
            runs.add(run(t, 100));
            t += 100 + 2_000 + 10;
        }
        Runs ok = new Runs("delay", runs);
        assertThat(ok.fixedDelay(Duration.ofSeconds(2), T0, T0.plusSeconds(60), null, FAILOVER)
                        .clean())
                .isTrue();
        runs.add(run(2_300, 50)); // soon after the second run ended: a second run of its turn
        assertThat(new Runs("delay", runs)
                        .fixedDelay(Duration.ofSeconds(2), T0, T0.plusSeconds(60), null, FAILOVER)
                        .gaps())
                .isNotEmpty();
    }

    @Test
    void aQuartzFireRunTwiceIsFoundByItsFireTime() {
        Instant fire = T0.plusSeconds(2);
        List<Run> runs = List.of(
                new Run(fire.plusMillis(5), fire.plusMillis(50), "n1", fire, 1L),
                new Run(fire.plusMillis(900), fire.plusMillis(950), "n2", fire, 2L));
        assertThat(new Runs("counter", runs)
                        .quartz(Duration.ofSeconds(2), T0, T0.plusSeconds(10))
                        .twice())
                .containsExactly(fire);
    }

    @Test
    void theRunTheKillCutMayRunAgainOnAnotherNodeButNoOtherRun() {
        Instant kill = T0.plusSeconds(30);
        List<Run> runs = new ArrayList<>();
        for (long t = 0; t < 30_000; t += 5_000) {
            runs.add(new Run(T0.plusMillis(t + 20), T0.plusMillis(t + 70), "n2", null, null));
        }
        runs.add(new Run(T0.plusMillis(30_020), null, "n2", null, null)); // n2 killed during the fire of 30 s
        runs.add(new Run(T0.plusMillis(32_000), T0.plusMillis(32_050), "n1", null, null)); // taken over, run again
        for (long t = 35_000; t < 60_000; t += 5_000) {
            runs.add(new Run(T0.plusMillis(t + 20), T0.plusMillis(t + 70), "n1", null, null));
        }
        Runs.Verdict verdict = new Runs("job", runs, "n2")
                .cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), kill, FAILOVER);
        assertThat(verdict.clean()).as(verdict.toString()).isTrue();
        assertThat(verdict.runs()).isEqualTo(12);

        runs.add(new Run(T0.plusMillis(45_500), T0.plusMillis(45_550), "n3", null, null));
        assertThat(new Runs("job", runs, "n2")
                        .cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), kill, FAILOVER)
                        .twice())
                .as("a fire the kill did not cut, run twice")
                .containsExactly(T0.plusSeconds(45));
        assertThat(new Runs("job", runs.subList(0, 12), "n1")
                        .cron("*/5 * * * * *", ZoneOffset.UTC, T0, T0.plusSeconds(60), kill, FAILOVER)
                        .twice())
                .as("the same runs, had another node been killed")
                .containsExactly(kill);
    }

    @Test
    void aFixedDelayTurnCutAfterItsRunEndedMayRunAgainAtOnce() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(T0, T0.plusMillis(100), "n2", null, null));
        // n2's run ended; n2 was killed before AX recorded its end: n1 runs the turn again as soon as it takes over
        runs.add(new Run(T0.plusMillis(2_110), T0.plusMillis(2_210), "n2", null, null));
        runs.add(new Run(T0.plusMillis(3_900), T0.plusMillis(4_000), "n1", null, null));
        runs.add(new Run(T0.plusMillis(6_010), T0.plusMillis(6_110), "n1", null, null));
        Instant kill = T0.plusSeconds(2);

        assertThat(new Runs("delay", runs, "n2")
                        .fixedDelay(Duration.ofSeconds(2), T0, T0.plusSeconds(10), kill, FAILOVER)
                        .clean())
                .isTrue();
        assertThat(new Runs("delay", runs, null)
                        .fixedDelay(Duration.ofSeconds(2), T0, T0.plusSeconds(10), kill, FAILOVER)
                        .gaps())
                .as("with no node killed, the turn ran again too soon")
                .hasSize(1);
    }

    @Test
    void aQuartzFireTheKillCutRunsAgainWithTheSameCounter() {
        Instant fire = T0.plusSeconds(2);
        List<Run> runs = List.of(
                new Run(T0.plusMillis(5), T0.plusMillis(50), "n2", T0, 1L),
                new Run(fire.plusMillis(5), fire.plusMillis(50), "n2", fire, 2L), // its data change was not kept
                new Run(fire.plusMillis(1_900), fire.plusMillis(1_950), "n1", fire, 2L),
                new Run(T0.plusMillis(4_005), T0.plusMillis(4_050), "n1", T0.plusSeconds(4), 3L));
        Runs judged = new Runs("counter", runs, "n2");

        Runs.Verdict verdict = judged.quartz(Duration.ofSeconds(2), T0, T0.plusSeconds(6));
        assertThat(verdict.clean()).as(verdict.toString()).isTrue();
        assertThat(verdict.runs()).isEqualTo(verdict.fires()).isEqualTo(3);
        assertThat(judged.counters()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aFixedRateIsJudgedInItsPhaseThoughRunsStandApartFromIt() {
        // fires at 800 ms past every third second; the application's first run at its start, and the fire the kill
        // cut run again 1.95 s late on another node: alone in their part of the period, they do not move the phase
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(T0.plusMillis(200), T0.plusMillis(350), "n1", null, null));
        for (long fire = 2_800; fire < 60_000; fire += 3_000) {
            if (fire == 29_800) {
                runs.add(new Run(T0.plusMillis(fire + 15), null, "n2", null, null));
                runs.add(new Run(T0.plusMillis(fire + 1_950), T0.plusMillis(fire + 2_100), "n1", null, null));
            } else {
                runs.add(new Run(
                        T0.plusMillis(fire + 15 + fire % 30),
                        T0.plusMillis(fire + 170),
                        fire < 29_800 ? "n2" : "n1",
                        null,
                        null));
            }
        }
        Runs.Verdict verdict = new Runs("rate", runs, "n2")
                .fixedRate(Duration.ofSeconds(3), T0, T0.plusSeconds(60), T0.plusSeconds(29), FAILOVER);
        assertThat(verdict.clean()).as(verdict.toString()).isTrue();
        assertThat(verdict.runs()).isEqualTo(verdict.fires()).isEqualTo(20);
    }
}
