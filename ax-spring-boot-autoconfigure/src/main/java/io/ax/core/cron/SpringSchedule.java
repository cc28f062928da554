package io.ax.core.cron;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * The fire times of a Spring expression, found as Spring Framework 7's {@code CronExpression} finds them, so that an
 * adopted {@code @Scheduled(cron = ...)} fires when Spring would have fired it.
 *
 * <p>The search starts a nanosecond after the given time and goes in rounds: each round passes the candidate through
 * the fields, largest first (day-of-week, month, day-of-month, hour, minute, second, then the fraction of a second),
 * each moving it to a time it accepts; a round that changes nothing has found the fire time. The fields are ANDed,
 * both day fields included. Spring bounds the rounds, and the steps of a field within a round, by {@link #MAX_STEPS};
 * past the bound there is no next time, which is also what Spring answers. Spring's search can throw where a date
 * overflows (such as {@code L-n} with n in the billions); there is no next time then either. Where the search
 * answers a time that is not after its start, a defect of it, AX goes on from where it moves on ({@link #pastLoop}).
 * Immutable and thread-safe.
 */
final class SpringSchedule implements Schedule {

    /** Spring's bound on the rounds of a search, and on the steps one field takes in a round. */
    static final int MAX_STEPS = 366;

    /** How far past a start {@link #pastLoop} looks for the end of a stretch where Spring's search loops back. */
    private static final long MAX_LOOP_SECONDS = 1L << 26;

    /** The start of {@link #requireCanFire(String)}'s search. */
    private static final ZonedDateTime EPOCH = ZonedDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    /** Largest first; the last one makes the fire time a whole second. */
    private final SpringField[] fields;

    SpringSchedule(
            SpringField seconds,
            SpringField minutes,
            SpringField hours,
            SpringField daysOfMonth,
            SpringField months,
            SpringField daysOfWeek) {
        SpringField wholeSeconds = SpringValues.WHOLE_SECONDS;
        this.fields = new SpringField[] {daysOfWeek, months, daysOfMonth, hours, minutes, seconds, wholeSeconds};
    }

    @Override
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
        Objects.requireNonNull(after, "after");
        try {
            ZonedDateTime found = searchAfter(after);
            return Optional.ofNullable(found == null || found.isAfter(after) ? found : pastLoop(after));
        } catch (DateTimeException | ArithmeticException e) {
            return Optional.empty(); // a date out of java.time's range: Spring's search throws here
        }
    }

    /**
     * What comes after a start from which Spring's search answers a time that is not after it. That is a defect of
     * Spring's search, met with {@code L-n} for n of 28 or more (the day then lies in the month before) and within
     * the half hour before Lord Howe's 30-minute change back (resetting the minutes lands before the change again);
     * Spring then runs the task again and again, each run's end being the next search's start, until the start has
     * passed the stretch from which the search loops back. AX runs it once: it answers what the search finds from
     * the end of that stretch, found to the second by doubling the distance from the start and then halving it.
     */
    private ZonedDateTime pastLoop(ZonedDateTime after) {
        long behind = 0;
        long ahead = 1;
        while (!movesOn(after, ahead)) {
            behind = ahead;
            ahead *= 2;
            if (ahead > MAX_LOOP_SECONDS) {
                return null;
            }
        }
        while (ahead - behind > 1) {
            long middle = behind + (ahead - behind) / 2;
            if (movesOn(after, middle)) {
                ahead = middle;
            } else {
                behind = middle;
            }
        }
        return searchAfter(after.plusSeconds(ahead));
    }

    /** Whether the search from {@code seconds} after {@code after} answers a later time than it, or none. */
    private boolean movesOn(ZonedDateTime after, long seconds) {
        ZonedDateTime found = searchAfter(after.plusSeconds(seconds));
        return found == null || found.isAfter(after);
    }

    /** Spring's {@code next}: the search from a nanosecond after {@code after}. */
    private ZonedDateTime searchAfter(ZonedDateTime after) {
        return search(after.plus(1, ChronoUnit.NANOS));
    }

    @Override
    public Optional<Instant> next(Instant after, ZoneId zone) {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(zone, "zone");
        ZonedDateTime start;
        try {
            start = ZonedDateTime.ofInstant(after, zone);
        } catch (DateTimeException e) {
            return Optional.empty(); // an instant beyond the last year java.time can show
        }
        return next(start).map(ZonedDateTime::toInstant);
    }

    private ZonedDateTime search(ZonedDateTime from) {
        ZonedDateTime candidate = from;
        for (int round = 0; round < MAX_STEPS; round++) {
            ZonedDateTime moved = candidate;
            for (SpringField field : fields) {
                moved = field.nextOrSame(moved);
                if (moved == null) {
                    return null;
                }
            }
            if (moved.equals(candidate)) {
                return moved;
            }
            candidate = moved;
        }
        return null;
    }

    /**
     * Spring accepts an expression that never fires (such as {@code 0 0 0 30 2 *}) and never schedules it; a task
     * defined with one is a mistake, so definitions call this to say so at once.
     */
    @Override
    public void requireCanFire(String expression) {
        if (next(EPOCH).isEmpty()) {
            throw new CronParseException(
                    CronExpression.Syntax.SPRING,
                    expression,
                    null,
                    -1,
                    "it can never fire: Spring's search finds no time that matches all its fields (such as February"
                            + " 30, or a 6th Monday)",
                    null);
        }
    }
}
