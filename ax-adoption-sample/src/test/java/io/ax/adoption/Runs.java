package io.ax.adoption;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.scheduling.support.CronExpression;

/**
 * Judges the runs of one job, from the jobs' own records, over a window of time: which fires ran twice, which did
 * not run, which runs overlapped. Fires are the job's schedule (Spring's cron, a fixed rate's phase, or the fire
 * time a Quartz job was given); a run belongs to the latest fire at or before its start. Around a kill the runs of
 * fires taken over from the dead node may start late, so there only the count of runs is held against the count of
 * fires; everywhere else each fire must have exactly one run.
 *
 * <p>The killed node's last run may have been cut by the kill: in its middle, or after the job recorded its end but
 * before AX did. AX runs that fire again on another node (at least once across a crash), so a second run of that one
 * fire is not held against it; a run twice of any other fire is.
 */
final class Runs {

    /** One run as the job recorded it; {@code ended} is null when its node was killed during it. */
    record Run(Instant started, Instant ended, String node, Instant fireTime, Long counter) {}

    /** What went wrong; empty lists when nothing did. */
    record Verdict(
            String job,
            int fires,
            int runs,
            List<Instant> twice,
            List<Instant> missed,
            List<String> overlaps,
            List<String> gaps) {

        boolean clean() {
            return twice.isEmpty() && missed.isEmpty() && overlaps.isEmpty() && gaps.isEmpty();
        }
    }

    /** Fires are listed this far past the window, so that no run after it is taken for the window's last fire. */
    private static final Duration BEYOND = Duration.ofMinutes(1);

    private final String job;
    private final List<Run> runs;
    /** The killed node's last run, which the kill may have cut; null when no node was killed or it ran nothing. */
    private final Run cut;

    Runs(String job, List<Run> runs) {
        this(job, runs, null);
    }

    /** The runs of {@code job}, of which those on {@code killed} (null for none) ended with that node's kill. */
    Runs(String job, List<Run> runs, String killed) {
        this.job = job;
        this.runs = runs.stream().sorted(Comparator.comparing(Run::started)).toList();
        this.cut = this.runs.stream()
                .filter(r -> r.node().equals(killed))
                .reduce((first, second) -> second)
                .orElse(null);
    }

    /** A cron job: its fires are Spring's for {@code cron} in {@code zone}. */
    Verdict cron(String cron, ZoneId zone, Instant from, Instant to, Instant kill, Duration failover) {
        CronExpression expression = CronExpression.parse(cron);
        List<Instant> fires = new ArrayList<>();
        Instant next = expression.next(from.atZone(zone).minusNanos(1)).toInstant();
        while (next.isBefore(to.plus(BEYOND))) {
            fires.add(next);
            next = expression.next(next.atZone(zone)).toInstant();
        }
        return byFires(fires, from, to, kill, failover);
    }

    /** A fixed rate of {@code period}: its phase is read from the runs that started least late. */
    Verdict fixedRate(Duration period, Instant from, Instant to, Instant kill, Duration failover) {
        long p = period.toMillis();
        long base = runs.get(0).started().toEpochMilli();
        long first = base + phase(p, base);
        List<Instant> fires = new ArrayList<>();
        long k = Math.floorDiv(from.toEpochMilli() - first + p - 1, p);
        for (long t = first + k * p; t < to.plus(BEYOND).toEpochMilli(); t += p) {
            fires.add(Instant.ofEpochMilli(t));
        }
        return byFires(fires, from, to, kill, failover);
    }

    /** How far apart in their period the starts of the runs of one fire time fall: how late a run may be. */
    private static final long BUNCH_MILLIS = 500;

    /**
     * Where the fires fall within a period, from {@code base}: runs start a little after their fire, so most of their
     * offsets in the period bunch together just after it; the fire is where the fullest bunch begins. A few runs
     * stand apart (the first, when the application started; one taken over late around a kill) and do not move it.
     * The period is a circle, so that a bunch across its end is one bunch.
     */
    private long phase(long period, long base) {
        long[] offsets = runs.stream()
                .mapToLong(r -> Math.floorMod(r.started().toEpochMilli() - base, period))
                .sorted()
                .toArray();
        int fullest = -1;
        long start = offsets[0];
        for (long candidate : offsets) {
            int in = 0;
            for (long o : offsets) {
                if (Math.floorMod(o - candidate, period) < BUNCH_MILLIS) {
                    in++;
                }
            }
            if (in > fullest) {
                fullest = in;
                start = candidate;
            }
        }
        return start;
    }

    /** A Quartz job: each run names its fire. */
    Verdict quartz(Duration period, Instant from, Instant to) {
        Map<Instant, Integer> perFire = new TreeMap<>();
        for (Run r : runs) {
            if (!r.fireTime().isBefore(from) && r.fireTime().isBefore(to) && !cutAndRunAgain(r)) {
                perFire.merge(r.fireTime(), 1, Integer::sum);
            }
        }
        List<Instant> twice = perFire.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey)
                .toList();
        return new Verdict(job, perFire.size(), runsIn(from, to), twice, List.of(), overlaps(), List.of());
    }

    /** A fixed delay of {@code delay}: each run starts {@code delay} after the previous one ended. */
    Verdict fixedDelay(Duration delay, Instant from, Instant to, Instant kill, Duration failover) {
        return spaced(delay, Duration.ofSeconds(1), from, to, kill, failover);
    }

    /**
     * Runs that follow each other: none overlaps the one before, and each starts no earlier than {@code least} after
     * the previous one ended and no later than {@code least + slack} (or the failover's bound around the kill).
     */
    Verdict spaced(Duration least, Duration slack, Instant from, Instant to, Instant kill, Duration failover) {
        List<String> gaps = new ArrayList<>();
        Run previous = null;
        for (Run r : runs) {
            if (previous != null
                    && !r.started().isBefore(from)
                    && r.started().isBefore(to)
                    && previous.ended() != null
                    && previous != cut) { // after a cut run, its turn may run again at once
                Duration gap = Duration.between(previous.ended(), r.started());
                boolean nearKill = nearKill(r.started(), kill, failover);
                Duration most = least.plus(nearKill ? failover : slack);
                if (gap.compareTo(least.minusMillis(100)) < 0 || gap.compareTo(most) > 0) {
                    gaps.add(r.started() + ": " + gap.toMillis() + " ms after the previous run ended ("
                            + least.toMillis() + " to " + most.toMillis() + " ms expected)");
                }
            }
            previous = r;
        }
        return new Verdict(job, -1, runsIn(from, to), List.of(), List.of(), overlaps(), gaps);
    }

    private Verdict byFires(List<Instant> fires, Instant from, Instant to, Instant kill, Duration failover) {
        Map<Instant, Integer> perFire = new TreeMap<>();
        fires.stream().filter(f -> f.isBefore(to)).forEach(f -> perFire.put(f, 0));
        Map<Run, Instant> fireOf = new HashMap<>();
        for (Run r : runs) {
            Instant fire = null;
            for (Instant f : fires) {
                if (!f.isAfter(r.started())) {
                    fire = f;
                }
            }
            if (fire != null) {
                fireOf.put(r, fire);
            }
        }
        int counted = 0;
        for (Run r : runs) {
            Instant fire = fireOf.get(r);
            boolean runAgain = r == cut
                    && fireOf.entrySet().stream()
                            .anyMatch(e -> e.getKey() != cut && e.getValue().equals(fire));
            if (fire != null && fire.isBefore(to) && !runAgain) {
                perFire.merge(fire, 1, Integer::sum);
                counted++;
            }
        }
        List<Instant> twice = new ArrayList<>();
        List<Instant> missed = new ArrayList<>();
        int aroundKill = 0;
        int firesAroundKill = 0;
        for (Map.Entry<Instant, Integer> e : perFire.entrySet()) {
            if (nearKill(e.getKey(), kill, failover)) {
                aroundKill += e.getValue();
                firesAroundKill++;
            } else if (e.getValue() > 1) {
                twice.add(e.getKey());
            } else if (e.getValue() == 0) {
                missed.add(e.getKey());
            }
        }
        if (aroundKill > firesAroundKill) {
            twice.add(kill);
        } else if (aroundKill < firesAroundKill) {
            missed.add(kill);
        }
        return new Verdict(job, perFire.size(), counted, twice, missed, overlaps(), List.of());
    }

    private static boolean nearKill(Instant t, Instant kill, Duration failover) {
        return kill != null && !t.isBefore(kill.minus(failover)) && t.isBefore(kill.plus(failover));
    }

    /** Runs that started before the previous run ended. */
    private List<String> overlaps() {
        List<String> found = new ArrayList<>();
        for (int i = 1; i < runs.size(); i++) {
            Run before = runs.get(i - 1);
            Run run = runs.get(i);
            if (before.ended() != null && run.started().isBefore(before.ended())) {
                found.add(run.started() + " on " + run.node() + " while the run of " + before.started() + " on "
                        + before.node() + " went on until " + before.ended());
            }
        }
        return found;
    }

    /** Whether {@code r} is the run the kill cut and another node ran its Quartz fire again. */
    private boolean cutAndRunAgain(Run r) {
        return r == cut
                && r.fireTime() != null
                && runs.stream().anyMatch(o -> o != cut && r.fireTime().equals(o.fireTime()));
    }

    private int runsIn(Instant from, Instant to) {
        return (int) runs.stream()
                .filter(r -> !r.started().isBefore(from) && r.started().isBefore(to) && !cutAndRunAgain(r))
                .count();
    }

    /** The counters of the completed runs, in the order of their fires. */
    List<Long> counters() {
        return runs.stream()
                .filter(r -> r.ended() != null && r.counter() != null && !cutAndRunAgain(r))
                .sorted(Comparator.comparing(Run::fireTime))
                .map(Run::counter)
                .toList();
    }
}
