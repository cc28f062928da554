package io.ax.core.cron;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * How the fire times of a parsed expression are found: by Quartz's rules ({@link QuartzSchedule}) or by Spring's
 * ({@link SpringSchedule}). Implementations are immutable and thread-safe.
 */
sealed interface Schedule permits QuartzSchedule, SpringSchedule {

    /** The first fire time strictly after {@code after}, in the zone of {@code after}; empty when there is none. */
    Optional<ZonedDateTime> next(ZonedDateTime after);

    /** The first fire time strictly after {@code after} on the wall clock of {@code zone}; empty when there is none. */
    Optional<Instant> next(Instant after, ZoneId zone);

    /**
     * Throws a {@link CronParseException} that says why, when no time can ever match; {@code expression} is the text
     * to name in it.
     */
    void requireCanFire(String expression);
}
