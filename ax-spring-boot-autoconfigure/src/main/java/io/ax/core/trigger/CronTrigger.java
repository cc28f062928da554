package io.ax.core.trigger;

import io.ax.core.cron.CronExpression;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * Fires at the times of a Quartz-compatible cron expression, evaluated in a time zone.
 *
 * @param expression the parsed expression
 * @param zone the zone in which the fields are read; never the silent system default
 */
public record CronTrigger(CronExpression expression, ZoneId zone) implements Trigger {

    public CronTrigger {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
    }

    /**
     * Parses {@code expression}; throws {@link io.ax.core.cron.CronParseException} when it is invalid or can never
     * fire (see {@link CronExpression#requireCanFire()}).
     */
    public static CronTrigger of(String expression, ZoneId zone) {
        return new CronTrigger(CronExpression.parse(expression).requireCanFire(), zone);
    }

    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        return next(now);
    }

    @Override
    public Optional<Instant> nextFireTime(Instant previous, Instant completed) {
        return next(previous);
    }

    @Override
    public Optional<Instant> resumeAfter(Instant previous, Instant now) {
        return next(now);
    }

    private Optional<Instant> next(Instant after) {
        return expression.next(after.atZone(zone)).map(t -> t.toInstant());
    }

    @Override
    public String describe() {
        return "cron '" + expression + "' in " + zone;
    }
}
