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
    LEADERLESS_JOIN;

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
