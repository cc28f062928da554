package io.ax.core.cron;

import java.time.ZonedDateTime;

/**
 * One field of a Spring expression, as Spring's search uses it: each round of the search passes the candidate time
 * through every field, largest first, and each field moves it to a time it accepts. Implementations are immutable
 * and thread-safe.
 */
sealed interface SpringField permits SpringValues, SpringDayRule, SpringAnyOf {

    /**
     * Returns {@code t} when this field accepts it; else the time Spring's search moves to, with the smaller fields
     * at their minimum; or null when it finds none. The time returned is usually after {@code t} but not always: a
     * day rule such as {@code L-30} can name a day of the month before, and Spring's search then goes on from there.
     */
    ZonedDateTime nextOrSame(ZonedDateTime t);
}
