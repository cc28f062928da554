package io.ax.core;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rate limit: at most {@code permits} attempts start in any {@code window}, across the cluster, judged on the
 * database's clock. It is a sliding log, not a token bucket: each start holds one of {@code permits} slots for {@code
 * window}, so no window of that length, wherever it begins, holds more starts; a token bucket lets up to twice the
 * rate through a window that spans a full bucket and its refill, which a partner's API that counts per window would
 * refuse.
 *
 * @param permits starts per window; at least 1
 * @param window the window; positive
 */
public record Rate(int permits, Duration window) {

    private static final Pattern TEXT =
            Pattern.compile("\\s*(\\d+)\\s*/\\s*(\\d*)\\s*(ms|s|m|h|d)\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * Checks the components.
     *
     * @param permits starts per window; at least 1
     * @param window the window; positive
     * @throws NullPointerException when {@code window} is null
     * @throws IllegalArgumentException when {@code permits} is below 1 or {@code window} is not positive
     */
    public Rate {
        Objects.requireNonNull(window, "window");
        if (permits < 1) {
            throw new IllegalArgumentException("a rate lets at least 1 start through per window, was " + permits);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the window of a rate is positive, was " + window);
        }
    }

    /**
     * Reads {@code <count>/<window>}: {@code 100/1m}, {@code 5/s} (a window of 1 s), {@code 20/500ms}; units {@code ms
     * s m h d}, in any case; white space around the parts is ignored.
     *
     * @param text the rate as text; not null
     * @return the rate
     * @throws NullPointerException when {@code text} is null
     * @throws IllegalArgumentException naming what is wrong
     */
    public static Rate parse(String text) {
        Matcher m = TEXT.matcher(Objects.requireNonNull(text, "rate"));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "rate '" + text + "' is not <count>/<window>, e.g. 100/1m, 5/s or 20/500ms (units ms, s, m, h, d)");
        }
        long amount = m.group(2).isEmpty() ? 1 : Long.parseLong(m.group(2));
        Duration window = switch (m.group(3).toLowerCase(Locale.ROOT)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
        try {
            return new Rate(Integer.parseInt(m.group(1)), window);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rate '" + text + "': the count is too large");
        }
    }

    /**
     * {@return the rate as {@link #parse} reads it, in the largest unit that divides the window, such as {@code
     * 100/1m}} Exact only for a window of whole milliseconds.
     */
    @Override
    public String toString() {
        long ms = window.toMillis();
        String w = ms % 86_400_000 == 0
                ? ms / 86_400_000 + "d"
                : ms % 3_600_000 == 0
                        ? ms / 3_600_000 + "h"
                        : ms % 60_000 == 0 ? ms / 60_000 + "m" : ms % 1_000 == 0 ? ms / 1_000 + "s" : ms + "ms";
        return permits + "/" + w;
    }
}
