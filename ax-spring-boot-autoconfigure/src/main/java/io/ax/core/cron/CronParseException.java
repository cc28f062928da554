package io.ax.core.cron;

/**
 * Thrown by {@link CronExpression#parse(String)} when an expression is not valid Quartz cron syntax, and by {@link
 * CronExpression#parseSpring(String)} when it is not valid in Spring's syntax (the message then starts with {@code
 * Invalid Spring cron expression}).
 *
 * <p>The message quotes the expression, names the field when the problem is specific to one field,
 * and gives the 0-based character index into the expression where the problem was found, for
 * example {@code Invalid cron expression '0 0 25 * * ?': hours value 25 out of range 0-23 at
 * position 4}. For common mistakes (five Unix fields, both day fields restricted) it ends with the
 * expression the user most likely meant.
 *
 * <p>Instances are immutable.
 */
public class CronParseException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String expression;
    private final String field;
    private final int position;

    /**
     * Creates an exception.
     *
     * @param expression the rejected expression, may be {@code null}
     * @param field the name of the offending field (such as {@code "day-of-month"}), or {@code null}
     *     when the problem is not specific to one field
     * @param position the 0-based index into {@code expression} where the problem was found, or
     *     {@code -1} when there is no meaningful position
     * @param detail what is wrong, without the expression or the position
     */
    CronParseException(String expression, String field, int position, String detail) {
        this(expression, field, position, detail, null);
    }

    /**
     * Creates an exception whose message ends with a suggestion.
     *
     * @param hint how to fix it, such as the expression the user most likely meant; or {@code null}
     */
    CronParseException(String expression, String field, int position, String detail, String hint) {
        this(CronExpression.Syntax.QUARTZ, expression, field, position, detail, hint);
    }

    /**
     * Creates an exception for an expression of the given syntax, whose name the message carries.
     *
     * @param syntax the syntax the expression was read in
     */
    CronParseException(
            CronExpression.Syntax syntax, String expression, String field, int position, String detail, String hint) {
        super(message(syntax, expression, position, detail) + (hint == null ? "" : "; " + hint));
        this.expression = expression;
        this.field = field;
        this.position = position;
    }

    private static String message(CronExpression.Syntax syntax, String expression, int position, String detail) {
        String quoted = expression == null ? "null" : "'" + expression + "'";
        String where = position < 0 ? "" : " at position " + position;
        String kind =
                syntax == CronExpression.Syntax.SPRING ? "Invalid Spring cron expression " : "Invalid cron expression ";
        return kind + quoted + ": " + detail + where;
    }

    /** Returns the rejected expression exactly as given, or {@code null} if {@code null} was given. */
    public String expression() {
        return expression;
    }

    /**
     * Returns the name of the offending field ({@code "seconds"}, {@code "minutes"}, {@code "hours"},
     * {@code "day-of-month"}, {@code "month"}, {@code "day-of-week"} or {@code "year"}), or {@code
     * null} when the problem is not specific to one field (for example a wrong number of fields).
     */
    public String field() {
        return field;
    }

    /**
     * Returns the 0-based character index into {@link #expression()} where the problem was found, or
     * {@code -1} when there is none (for example for a {@code null} expression).
     */
    public int position() {
        return position;
    }
}
