package io.ax.core.cron;

import java.time.ZonedDateTime;
import java.util.List;

/**
 * A day field that lists rules of different kinds, such as {@code 1,L} (the first and the last day of the month):
 * the earliest time that any of them moves to; null when none finds one.
 *
 * @param rules the listed rules, in their order in the expression, at least two
 */
record SpringAnyOf(List<SpringField> rules) implements SpringField {

    SpringAnyOf {
        rules = List.copyOf(rules);
    }

    @Override
    public ZonedDateTime nextOrSame(ZonedDateTime t) {
        ZonedDateTime earliest = null;
        for (SpringField rule : rules) {
            ZonedDateTime candidate = rule.nextOrSame(t);
            if (earliest == null || (candidate != null && candidate.isBefore(earliest))) {
                earliest = candidate;
            }
        }
        return earliest;
    }
}
