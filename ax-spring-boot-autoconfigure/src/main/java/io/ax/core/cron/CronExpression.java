package io.ax.core.cron;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * A cron expression in one of two syntaxes: Quartz's, which AX's own tasks use ({@link #parse(String)}), or Spring's,
 * the syntax of {@code @Scheduled(cron = ...)} ({@link #parseSpring(String)}). Each is read and evaluated with the
 * meaning its own scheduler gives it; {@link #syntax()} says which one an expression is in.
 *
 * <h2>Quartz syntax</h2>
 *
 * <p>Six or seven whitespace-separated fields (seconds, minutes, hours, day-of-month, month, day-of-week and an
 * optional year from 1970 to 2099), with the meaning that Quartz 2.5 gives them.
 *
 * <p>Supported syntax: {@code *}, {@code ?}, lists with {@code ,}, ranges with {@code -} (a range whose end is below
 * its start wraps around, so {@code 22-2} in hours means 22, 23, 0, 1, 2), steps with {@code /} ({@code a/b},
 * {@code *}{@code /b}, {@code a-b/c}), month names {@code JAN}-{@code DEC} and day names {@code SUN}-{@code SAT} in
 * any case; day-of-week numbers run from 1 (Sunday) to 7 (Saturday). Day-of-month also accepts {@code L} (last day),
 * {@code L-n} (n days before the last), {@code nW} (weekday nearest day n, never leaving the month), {@code LW} and
 * {@code L-nW}; day-of-week also accepts {@code L} alone (Saturday), {@code nL} (last such weekday of the month) and
 * {@code n#k} (k-th such weekday, k from 1 to 5). Exactly one of the two day fields must be {@code ?}.
 *
 * <p>Fire times are computed on the wall clock of the zone, as Quartz does: a wall time that falls into a
 * daylight-saving gap does not exist and is skipped (and, as in Quartz, a gap can also hide the rest of an hour that
 * it truncates); in an overlap the wall time is taken with the later offset, so a schedule fires once per wall time.
 * Deliberate differences from Quartz 2.5.2: {@code nW} still fires on the following Monday when the search starts
 * after day n (Quartz skips that month); no fire time after 2099 is produced; some malformed input that Quartz
 * silently ignores is rejected.
 *
 * <p>The macros of Unix cron stand for a whole expression: {@code @yearly} (and {@code @annually}) is {@code 0 0 0 1
 * 1 ?}, {@code @monthly} {@code 0 0 0 1 * ?}, {@code @weekly} {@code 0 0 0 ? * SUN}, {@code @daily} (and {@code
 * @midnight}) {@code 0 0 0 * * ?}, {@code @hourly} {@code 0 0 * * * ?}.
 *
 * <h2>Spring syntax</h2>
 *
 * <p>Exactly six fields separated by spaces (second, minute, hour, day-of-month, month, day-of-week), read as Spring
 * Framework 7's {@code CronExpression} reads them, and fire times found as its search finds them; AX's conformance
 * test compares the two on thousands of generated expressions. The differences from Quartz syntax:
 *
 * <ul>
 *   <li>day-of-week numbers run from 0 to 7, and both 0 and 7 are Sunday (1 is Monday); {@code *} in day-of-week is
 *       Monday to Sunday, so {@code *}{@code /2} is Monday, Wednesday, Friday and Sunday;
 *   <li>{@code ?} is {@code *}, and both day fields may be restricted: a day must then match both (Friday the 13th is
 *       {@code 0 0 0 13 * FRI});
 *   <li>a range must not end before it starts ({@code 22-2} is refused), except that 7 (Sunday) first in a
 *       day-of-week range counts as 0 ({@code 7-1} is Sunday and Monday, {@code SUN-SAT} every day);
 *   <li>names are three letters in any case; {@code L}, {@code L-n} (n of 1 or more), {@code LW} and {@code nW} in
 *       day-of-month must be upper case and may be listed with plain days ({@code 1,L}); {@code nW} finds no day in
 *       a month whose day n is a Sunday and its last day (Spring moves it to the Monday after, out of the month);
 *       day-of-week takes {@code nL} and {@code n#k} (also as names, {@code FRIL}, {@code MON#2}), but not {@code L}
 *       alone; {@code n#k} with k above 5 is accepted and never matches;
 *   <li>there is no year field, and no year limit;
 *   <li>macros as above, {@code @weekly} being Sunday.
 * </ul>
 *
 * <p>Daylight-saving time follows Spring's search, not Quartz's rules: a wall time in a gap is skipped, and one that
 * an overlap repeats can fire at both of its instants (a daily {@code 0 30 2 * * *} in Europe/Berlin fires at 02:30
 * CEST and again at 02:30 CET on the day summer time ends). Where Spring's search gives up (it stops after a bounded
 * number of steps, so an expression that matches only in rare years may find no next time) or fails with an
 * exception, {@link #next} is empty. Where it answers a time that is not after its start, which is a defect of it
 * (met with {@code L-n} for n of 28 or more, whose day can lie in the month before, and in the half hour before the
 * clocks of Australia/Lord_Howe go back by 30 minutes), Spring runs the task again and again until the start of its
 * search has moved past that stretch; {@link #next} answers what the search finds from there, so the task runs once.
 *
 * <p>Instances are immutable and thread-safe. {@link #equals(Object)} and {@link #hashCode()} compare the syntax and
 * the expression text.
 */
public final class CronExpression {

    /** The syntax an expression is written in, which decides how its text is read. */
    public enum Syntax {
        /** Quartz's syntax, AX's own: day-of-week 1 is Sunday, one day field must be {@code ?}, an optional year. */
        QUARTZ,
        /** Spring's syntax, that of {@code @Scheduled(cron = ...)}: day-of-week 0 and 7 are Sunday, six fields. */
        SPRING
    }

    static final int MIN_YEAR = 1970;
    static final int MAX_YEAR = 2099;

    private final String expression;
    private final Syntax syntax;
    private final Schedule schedule;

    CronExpression(String expression, Syntax syntax, Schedule schedule) {
        this.expression = expression;
        this.syntax = syntax;
        this.schedule = schedule;
    }

    /**
     * Parses a Quartz cron expression.
     *
     * @param expression the expression, such as {@code "0 15 10 ? * MON-FRI"}
     * @return the parsed expression, never {@code null}
     * @throws CronParseException if the expression is {@code null} or not valid; no other exception is thrown for
     *     any input
     */
    public static CronExpression parse(String expression) {
        return CronParser.parse(expression);
    }

    /**
     * Parses a cron expression in Spring's syntax, as {@code @Scheduled(cron = ...)} takes it. Every expression that
     * Spring Framework 7 refuses is refused; every one it accepts is accepted, including those that never fire
     * (such as {@code 0 0 0 30 2 *}), whose {@link #next} is empty (see {@link #requireCanFire()}).
     *
     * @param expression the expression, such as {@code "0 15 10 * * MON-FRI"} or {@code "@daily"}
     * @return the parsed expression, with {@link #syntax()} {@link Syntax#SPRING}; never {@code null}
     * @throws CronParseException if the expression is {@code null} or not valid in Spring's syntax; its message says
     *     that Spring's syntax was expected. No other exception is thrown for any input
     */
    public static CronExpression parseSpring(String expression) {
        return SpringCronParser.parse(expression);
    }

    /**
     * Returns the syntax this expression was parsed in: the text alone does not say it, since the same text can be
     * valid in both with different meanings ({@code 0 0 0 ? * 1} is every Sunday in Quartz's syntax and every Monday in
     * Spring's). Whoever stores an expression to parse it again keeps this beside {@link #toString()}.
     *
     * @return the syntax, never {@code null}
     */
    public Syntax syntax() {
        return syntax;
    }

    /**
     * Returns the first fire time strictly after {@code after}, in the zone of {@code after}.
     *
     * <p>Fire times have whole seconds. For a Quartz expression the search ends at the end of 2099; wall times that
     * a daylight-saving gap removes are skipped, and a wall time that an overlap repeats fires once, with the later
     * offset, as in Quartz. A Spring expression is searched as Spring searches it (see the class description).
     *
     * @param after the time to search after, not {@code null}
     * @return the next fire time, or empty if there is none
     * @throws NullPointerException if {@code after} is {@code null}
     */
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
        Objects.requireNonNull(after, "after");
        return schedule.next(after);
    }

    /**
     * Returns the first fire time strictly after {@code after}, computed on the wall clock of {@code zone}.
     *
     * @param after the instant to search after, not {@code null}
     * @param zone the zone whose wall clock the expression describes, not {@code null}
     * @return the next fire time, or empty if there is none
     * @throws NullPointerException if an argument is {@code null}
     */
    public Optional<Instant> next(Instant after, ZoneId zone) {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(zone, "zone");
        return schedule.next(after, zone);
    }

    /** The same schedule under another text: a macro such as {@code @daily} keeps its name. */
    CronExpression named(String text) {
        return new CronExpression(text, syntax, schedule);
    }

    /**
     * Checks that the expression can fire at all. Quartz and Spring both accept an expression that never fires (such
     * as the 30th of February) and simply never run it; a task defined with one is a mistake, so definitions call
     * this to say so at once. A Quartz expression must fire between 1970 and 2099; a Spring expression must have a
     * next fire time when Spring's search starts at the beginning of 1970 (UTC).
     *
     * @return this expression
     * @throws CronParseException naming the reason when it can never fire
     */
    public CronExpression requireCanFire() {
        schedule.requireCanFire(expression);
        return this;
    }

    /**
     * Returns the expression exactly as it was given to {@link #parse(String)} or {@link #parseSpring(String)};
     * {@link #syntax()} says which of the two reads it.
     */
    @Override
    public String toString() {
        return expression;
    }

    /** Two expressions are equal when their syntax and their text are equal. */
    @Override
    public boolean equals(Object other) {
        return other instanceof CronExpression that && syntax == that.syntax && expression.equals(that.expression);
    }

    @Override
    public int hashCode() {
        return 31 * syntax.ordinal() + expression.hashCode();
    }
}
