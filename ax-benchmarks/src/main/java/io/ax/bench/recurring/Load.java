package io.ax.bench.recurring;

import java.time.Instant;
import java.util.List;

/**
 * A set of recurring tasks: groups of tasks that fire every second, minute or hour, on the boundary (cron), so
 * every system sees the same fire times.
 */
record Load(String label, List<Group> groups) {

    enum Cadence {
        SECOND(1, "* * * * * ?", "* * * * * *"),
        MINUTE(60, "0 * * * * ?", "0 * * * * *"),
        HOUR(3600, "0 0 * * * ?", "0 0 * * * *");

        final long seconds;
        /** Quartz and AX use the Quartz cron dialect (seconds first, ? for day of week). */
        final String quartzCron;
        /** db-scheduler's cron dialect (Spring's: six fields, seconds first). */
        final String dbSchedulerCron;

        Cadence(long seconds, String quartzCron, String dbSchedulerCron) {
            this.seconds = seconds;
            this.quartzCron = quartzCron;
            this.dbSchedulerCron = dbSchedulerCron;
        }

        /** The first boundary of this cadence strictly after {@code now}. */
        Instant nextAfter(Instant now) {
            return Instant.ofEpochSecond((Math.floorDiv(now.getEpochSecond(), seconds) + 1) * seconds);
        }
    }

    /** {@code count} tasks named {@code prefix-<n>}, each firing once per cadence. */
    record Group(String prefix, int count, Cadence cadence) {}

    static Load everySecond(int tasks) {
        return new Load((tasks / 1000) + "k@1s", List.of(new Group("sec", tasks, Cadence.SECOND)));
    }

    static Load mix(int perSecond, int perMinute, int perHour) {
        return new Load(
                "mix",
                List.of(
                        new Group("sec", perSecond, Cadence.SECOND),
                        new Group("min", perMinute, Cadence.MINUTE),
                        new Group("hour", perHour, Cadence.HOUR)));
    }

    int tasks() {
        return groups.stream().mapToInt(Group::count).sum();
    }

    /** Fires due in the window (from, to]: per group, its tasks times the cadence boundaries in the window. */
    long expectedFires(Instant from, Instant to) {
        long total = 0;
        for (Group g : groups) {
            long boundaries = Math.floorDiv(to.getEpochSecond(), g.cadence().seconds)
                    - Math.floorDiv(from.getEpochSecond(), g.cadence().seconds);
            total += boundaries * g.count();
        }
        return total;
    }

    /** Whether some group fires less often than every second (its boundary should fall inside the window). */
    boolean hasMinuteGroup() {
        return groups.stream().anyMatch(g -> g.cadence() == Cadence.MINUTE);
    }
}
