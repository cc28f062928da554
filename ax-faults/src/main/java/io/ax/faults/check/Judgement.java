package io.ax.faults.check;

import java.time.Duration;

/**
 * The bounds the checks judge by, as the run recorded them in {@code faults_setting}.
 *
 * @param lease the nodes' lease: a node whose last heartbeat is older than this no longer holds it
 * @param heartbeat the nodes' heartbeat
 * @param misfire the nodes' misfire threshold: a fire started later than this is late
 * @param earlyTolerance how much earlier than its due time a delayed task may start, for the uncertainty of the
 *     leader's clock offset
 * @param markUs everything due by this moment (database clock) must be final once the cluster was quiet
 */
record Judgement(Duration lease, Duration heartbeat, Duration misfire, Duration earlyTolerance, long markUs) {

    static Judgement of(History h) {
        return new Judgement(
                Duration.ofMillis(h.settingLong("lease_ms", 2_500)),
                Duration.ofMillis(h.settingLong("heartbeat_ms", 500)),
                Duration.ofMillis(h.settingLong("misfire_ms", 2_000)),
                Duration.ofMillis(h.settingLong("early_tolerance_ms", 250)),
                h.settingLong("mark_us", Long.MAX_VALUE));
    }

    long leaseUs() {
        return lease.toNanos() / 1_000;
    }
}
