package io.ax.core.trigger;

import io.ax.core.cron.CronExpression;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * Fires at the times of a cron expression, evaluated in a time zone: a Quartz expression (AX's own syntax, {@link
 * #of(String, ZoneId)}) or one in Spring's syntax, as {@code @Scheduled(cron = ...)} takes it ({@link #ofSpring(String,
 * ZoneId)}), each with its own meaning (see {@link CronExpression}).
 *
 * <p>The expression keeps its syntax ({@link CronExpression#syntax()}), and {@link #describe()} and {@link #toString()}
 * name a Spring expression as such: its text is not rewritten into Quartz's syntax, because Spring's fire times (both
 * day fields ANDed, a repeated wall time firing twice) have no Quartz expression that says the same. Whoever stores a
 * trigger to read it again stores the syntax beside the text.
 *
 * <p>A trigger may have its first fire pinned ({@link #firstFireFrom(Instant)}): its series then starts at the first
 * time of the expression at or after that instant, whichever node plans it and whenever, so that a series taken over
 * from another scheduler starts where that one stopped. When that time has passed by the time the series is planned,
 * it is a late fire of the series, and the task's misfire policy says what becomes of it.
 *
 * @param expression the parsed expression
 * @param zone the zone in which the fields are read; never the silent system default
 * @param from the instant the first fire is pinned to, or {@code null}: the series starts with the first time after
 *     it is planned
 */
public record CronTrigger(CronExpression expression, ZoneId zone, Instant from) implements Trigger {

    /**
     * Creates a trigger.
     *
     * @throws NullPointerException if the expression or the zone is {@code null}
     */
    public CronTrigger {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
    }

    /**
     * Creates a trigger whose series starts with the first time after it is planned.
     *
     * @param expression the parsed expression
     * @param zone the zone in which the fields are read
     * @throws NullPointerException if an argument is {@code null}
     */
    public CronTrigger(CronExpression expression, ZoneId zone) {
        this(expression, zone, null);
    }

    /**
     * Parses a Quartz {@code expression}; throws {@link io.ax.core.cron.CronParseException} when it is invalid or can
     * never fire (see {@link CronExpression#requireCanFire()}).
     *
     * @param expression a Quartz cron expression, such as {@code 0 15 10 ? * MON-FRI}
     * @param zone the zone in which its fields are read
     * @return the trigger
     */
    public static CronTrigger of(String expression, ZoneId zone) {
        return new CronTrigger(CronExpression.parse(expression).requireCanFire(), zone);
    }

    /**
     * Parses an {@code expression} in Spring's syntax, for a method scheduled by {@code @Scheduled(cron = ...)} that AX
     * runs instead: it fires when Spring would have fired it. Throws {@link io.ax.core.cron.CronParseException} when
     * the expression is invalid in Spring's syntax (everything Spring refuses) or can never fire (which Spring accepts
     * and silently never runs).
     *
     * @param expression a cron expression in Spring's syntax, such as {@code 0 15 10 * * MON-FRI} or {@code @daily}
     * @param zone the zone in which its fields are read: the {@code zone} attribute of {@code @Scheduled}, or the zone
     *     Spring would have used in its absence
     * @return the trigger
     */
    public static CronTrigger ofSpring(String expression, ZoneId zone) {
        return new CronTrigger(CronExpression.parseSpring(expression).requireCanFire(), zone);
    }

    /**
     * The same trigger with its first fire pinned: the first time of the expression at or after {@code from}, even
     * once that time has passed.
     *
     * @param from the earliest first fire time
     * @return the pinned trigger
     * @throws NullPointerException if {@code from} is {@code null}
     */
    public CronTrigger firstFireFrom(Instant from) {
        return new CronTrigger(expression, zone, Objects.requireNonNull(from, "from"));
    }

    /**
     * {@return the first time after {@code now}; for a pinned trigger, the first time at or after its {@link #from()}
     * instant, which may have passed}
     */
    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        // the expression's times are whole seconds at the finest: a nanosecond earlier makes "after" "at or after"
        return from == null ? next(now) : next(from.minusNanos(1));
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

    /**
     * {@return {@code cron '0 15 10 ? * MON-FRI' in Europe/Berlin} for a Quartz expression, {@code Spring cron '0 15
     * 10 * * MON-FRI' in Europe/Berlin} for one in Spring's syntax; a pinned trigger adds {@code from} and the
     * instant}
     */
    @Override
    public String describe() {
        String kind = expression.syntax() == CronExpression.Syntax.SPRING ? "Spring cron '" : "cron '";
        return kind + expression + "' in " + zone + (from == null ? "" : " from " + from);
    }

    /** {@return the same as {@link #describe()}} */
    @Override
    public String toString() {
        return describe();
    }
}
