package io.ax.faults.inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * When each fault begins, of what kind, for how long, and a number that picks its target among the candidates of the
 * moment (the leader when it is even, where the kind may hit the leader). The seed fixes the plan; which node is the
 * leader when a step comes depends on the run, so a repeated seed repeats the plan, not every interleaving.
 *
 * @param steps in order of their start
 */
public record FaultPlan(List<Step> steps) {

    /**
     * One fault of the plan.
     *
     * @param at when it begins, after the cluster is up
     * @param kind what it is
     * @param length how long it lasts: the node's pause before its restart, the freeze, the cut, the time a clock
     *     stays jumped; for a skewed start, how far ahead the clock goes
     * @param pick chooses the target among the candidates when it begins
     */
    public record Step(Duration at, FaultKind kind, Duration length, int pick) {}

    public FaultPlan {
        steps = steps.stream().sorted(Comparator.comparing(Step::at)).toList();
    }

    /** When the last step begins. */
    public Duration lastStart() {
        return steps.isEmpty() ? Duration.ZERO : steps.get(steps.size() - 1).at();
    }

    /** How often each kind weighs in a random plan; restarts of everything are rarer. */
    private static final Map<FaultKind, Integer> WEIGHTS = weights();

    private static Map<FaultKind, Integer> weights() {
        Map<FaultKind, Integer> w = new EnumMap<>(FaultKind.class);
        w.put(FaultKind.KILL, 6);
        w.put(FaultKind.FREEZE, 4);
        w.put(FaultKind.PARTITION, 6);
        w.put(FaultKind.DB_OUTAGE, 4);
        w.put(FaultKind.REDIS_RESTART, 4);
        w.put(FaultKind.SKEWED_START, 2);
        w.put(FaultKind.CLOCK_JUMP, 2);
        w.put(FaultKind.ROLLING_RESTART, 1);
        w.put(FaultKind.LEADERLESS_JOIN, 2);
        w.put(FaultKind.PG_FAILOVER, 2);
        w.put(FaultKind.PG_LAGGING_FAILOVER, 2);
        w.put(FaultKind.PG_OLD_PRIMARY_BACK, 1);
        w.put(FaultKind.REDIS_SENTINEL_FAILOVER, 1);
        return w;
    }

    /**
     * A plan drawn from the seed: a fault every 3 to 12 seconds, from 10 s after the start, each over before {@code
     * faultTime}; faults last up to 20 s, so several are often under way at once.
     */
    public static FaultPlan random(long seed, Duration faultTime, Set<FaultKind> kinds, Duration lease) {
        Random random = new Random(seed);
        List<FaultKind> bag = new ArrayList<>();
        for (FaultKind k : kinds) {
            for (int i = 0; i < WEIGHTS.get(k); i++) {
                bag.add(k);
            }
        }
        List<Step> steps = new ArrayList<>();
        Duration at = Duration.ofSeconds(10);
        while (true) {
            FaultKind kind = bag.get(random.nextInt(bag.size()));
            Duration length = length(kind, random, lease);
            if (at.plus(length).compareTo(faultTime) > 0) {
                break;
            }
            steps.add(new Step(at, kind, length, random.nextInt(1_000)));
            at = at.plusMillis(3_000 + random.nextInt(9_000));
        }
        return new FaultPlan(steps);
    }

    private static Duration length(FaultKind kind, Random random, Duration lease) {
        return switch (kind) {
            case KILL, REDIS_RESTART -> Duration.ofMillis(1_000 + random.nextInt(5_000));
            // past the lease, so that the node's work is taken over while it is frozen
            case FREEZE -> lease.plusMillis(500 + random.nextInt(2_500));
            case PARTITION -> Duration.ofMillis(2_000 + random.nextInt(8_000));
            case DB_OUTAGE -> Duration.ofMillis(2_000 + random.nextInt(6_000));
            case SKEWED_START -> Duration.ofSeconds(3 + random.nextInt(8));
            case CLOCK_JUMP -> Duration.ofSeconds(5 + random.nextInt(15));
            case ROLLING_RESTART, LEADERLESS_JOIN, PG_FAILOVER -> Duration.ZERO;
            // how long the primary commits alone before it is stopped: what the promoted standby lacks
            case PG_LAGGING_FAILOVER -> Duration.ofMillis(2_000 + random.nextInt(3_000));
            // how long the old primary runs beside the new one
            case PG_OLD_PRIMARY_BACK -> Duration.ofSeconds(5 + random.nextInt(10));
            // how long the primary takes writes its replica misses before it is killed
            case REDIS_SENTINEL_FAILOVER -> Duration.ofMillis(1_000 + random.nextInt(2_000));
        };
    }

    /**
     * The CI plan: each kind once ({@code redis-restart} only with Redis), in about two minutes, some at once: a DB
     * outage while Redis is down, a clock jump while a skewed node starts, a rolling restart while the node that
     * joined without a leader is still starting. On the pair, one failover to a caught-up standby, while the clock
     * jump lasts; the kinds that lose commits are not in it (their outcome depends on what AX reports).
     */
    public static FaultPlan ci(boolean redis, boolean pair, Duration lease) {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(Duration.ofSeconds(5), FaultKind.KILL, Duration.ofSeconds(2), 0));
        steps.add(new Step(Duration.ofSeconds(14), FaultKind.FREEZE, lease.plusMillis(1_500), 1));
        steps.add(new Step(Duration.ofSeconds(22), FaultKind.PARTITION, Duration.ofSeconds(6), 0));
        steps.add(new Step(Duration.ofSeconds(31), FaultKind.DB_OUTAGE, Duration.ofSeconds(5), 0));
        if (redis) {
            steps.add(new Step(Duration.ofSeconds(33), FaultKind.REDIS_RESTART, Duration.ofSeconds(4), 0));
        }
        steps.add(new Step(Duration.ofSeconds(40), FaultKind.CLOCK_JUMP, Duration.ofSeconds(12), 0));
        steps.add(new Step(Duration.ofSeconds(42), FaultKind.SKEWED_START, Duration.ofSeconds(7), 1));
        if (pair) {
            steps.add(new Step(Duration.ofSeconds(48), FaultKind.PG_FAILOVER, Duration.ZERO, 0));
        }
        steps.add(new Step(Duration.ofSeconds(56), FaultKind.LEADERLESS_JOIN, Duration.ZERO, 0));
        steps.add(new Step(Duration.ofSeconds(60), FaultKind.ROLLING_RESTART, Duration.ZERO, 0));
        return new FaultPlan(steps);
    }
}
