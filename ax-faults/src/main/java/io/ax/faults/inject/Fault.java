package io.ax.faults.inject;

/**
 * One kind of fault: injects it for a step of the plan and heals it before it returns, logging both in the fault
 * log. Called on an injector thread; a fault that finds no free target says so and returns.
 */
interface Fault {

    void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException;

    /** The fault of each kind. */
    static Fault of(FaultKind kind) {
        return switch (kind) {
            case KILL -> new Kill();
            case FREEZE -> new Freeze();
            case PARTITION -> new Partition();
            case DB_OUTAGE -> new DatabaseOutage();
            case REDIS_RESTART -> new RedisRestart();
            case SKEWED_START -> new SkewedStart();
            case CLOCK_JUMP -> new ClockJump();
            case ROLLING_RESTART -> new RollingRestart();
            case LEADERLESS_JOIN -> new LeaderlessJoin();
            case PG_FAILOVER, PG_LAGGING_FAILOVER, PG_OLD_PRIMARY_BACK -> new PairFailover();
            case REDIS_SENTINEL_FAILOVER -> new SentinelFailover();
        };
    }
}
