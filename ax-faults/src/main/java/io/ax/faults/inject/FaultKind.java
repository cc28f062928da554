package io.ax.faults.inject;

import java.util.Arrays;
import java.util.Locale;

/** The faults the runner injects, by the names the command line and the fault log use. */
public enum FaultKind {
    /** {@code kill -9} of a node (the leader as often as not), started again after a pause. */
    KILL,
    /** {@code SIGSTOP} of a node past its lease, then {@code SIGCONT}: it wakes up to find its work taken over. */
    FREEZE,
    /** One node's database traffic blackholed by its proxy (nothing crosses, nothing is closed), then healed. */
    PARTITION,
    /** Every node's database traffic cut at once (blackholed, or reset and refused as if the server went down). */
    DB_OUTAGE,
    /** The private redis-server killed and started again, empty ({@code --redis} only). */
    REDIS_RESTART,
    /** A node stopped and started again with its wall clock seconds ahead (libfaketime {@code FAKETIME}). */
    SKEWED_START,
    /** The wall clock of the node started with a clock file jumps forwards, and later back. */
    CLOCK_JUMP,
    /** Every node stopped with SIGTERM, waited for, and started again, one after the other. */
    ROLLING_RESTART,
    /** The leader killed and a node that never ran before started at once, while no node leads. */
    LEADERLESS_JOIN,
    /**
     * The pair's primary stopped at once and a standby that has every acknowledged commit promoted (made synchronous
     * first when the pair is not); the pair is re-formed afterwards ({@code --pair} only).
     */
    PG_FAILOVER,
    /**
     * The pair's standby stops streaming, the primary commits on alone for a few seconds, then it is stopped at once
     * and the standby promoted: its last commits are lost ({@code --pair} only).
     */
    PG_LAGGING_FAILOVER,
    /**
     * A lagging failover, then the old primary started again as a primary beside the new one and a node started
     * again with the old one first in its URL, so that it connects to it: a split brain nothing fenced; the old one
     * is stopped again after the fault's length ({@code --pair} only, never drawn unless named).
     */
    PG_OLD_PRIMARY_BACK,
    /**
     * The Sentinel set's replica made to miss the last writes ({@code SIGSTOP}, its link killed), then {@code kill
     * -9} of the primary; the sentinels promote the replica ({@code --sentinel} only, once a run: the set has no
     * replica left).
     */
    REDIS_SENTINEL_FAILOVER;

    /** Whether the kind needs the run's Redis to be a Sentinel set ({@code --sentinel}). */
    public boolean needsSentinel() {
        return this == REDIS_SENTINEL_FAILOVER;
    }

    /** Whether the kind needs the run's PostgreSQL pair ({@code --pair}). */
    public boolean needsPair() {
        return this == PG_FAILOVER || this == PG_LAGGING_FAILOVER || this == PG_OLD_PRIMARY_BACK;
    }

    /** The command-line name: {@code db-outage} for DB_OUTAGE. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws IllegalArgumentException naming the known kinds */
    public static FaultKind fromCli(String name) {
        for (FaultKind k : values()) {
            if (k.cliName().equals(name.strip())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + name + "'; known: "
                + String.join(
                        ", ", Arrays.stream(values()).map(FaultKind::cliName).toList()));
    }
}
