package io.ax.autoconfigure.endpoint;

import io.ax.core.InstanceState;
import io.ax.core.store.InstanceQuery;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/**
 * The query parameters of {@code GET /actuator/ax/instances}, read and checked: each optional, any bad one answered
 * with a message that names it and what it accepts. The page is bounded ({@link AxEndpoint#MAX_PAGE_SIZE}) and so
 * is how deep one may page ({@link #MAX_DEPTH}): a search reads every page before the one asked for from each store.
 *
 * @param page the page, from 0
 * @param size its size
 * @param query the store query, asking for one instance more than the page holds (to tell whether more follow)
 */
record InstanceSearchRequest(int page, int size, InstanceQuery query) {

    /** How many instances a search may skip and return in all: narrow by time to look further back. */
    static final int MAX_DEPTH = 10_000;

    /** Either a request or why there is none. */
    record Parsed(InstanceSearchRequest request, String error) {

        <T> T map(Function<InstanceSearchRequest, T> ok, Function<String, T> bad) {
            return request != null ? ok.apply(request) : bad.apply(error);
        }
    }

    static Parsed parse(String task, String state, String from, String to, String page, String size) {
        try {
            int p = number("page", page, 0);
            int s = number("size", size, AxEndpoint.DEFAULT_PAGE_SIZE);
            if (p < 0 || s < 1 || s > AxEndpoint.MAX_PAGE_SIZE) {
                return bad("page must be >= 0 and size between 1 and " + AxEndpoint.MAX_PAGE_SIZE);
            }
            if ((long) p * s + s > MAX_DEPTH) {
                return bad("page " + p + " of size " + s + " reaches beyond the first " + MAX_DEPTH
                        + " matches; narrow the search with from and to");
            }
            Instant start = instant("from", from);
            Instant end = instant("to", to);
            if (start != null && end != null && start.isAfter(end)) {
                return bad("from (" + start + ") must not be after to (" + end + ")");
            }
            InstanceQuery query = new InstanceQuery(blankToNull(task), state(state), start, end, p * s, s + 1);
            return new Parsed(new InstanceSearchRequest(p, s, query), null);
        } catch (IllegalArgumentException e) {
            return bad(e.getMessage());
        }
    }

    private static Parsed bad(String message) {
        return new Parsed(null, message);
    }

    private static int number(String name, String text, int absent) {
        if (text == null || text.isBlank()) {
            return absent;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + shown(text) + "'");
        }
    }

    private static Instant instant(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    name + " must be an ISO-8601 instant such as 2026-01-31T08:00:00Z, was '" + shown(text) + "'");
        }
    }

    private static InstanceState state(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return InstanceState.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "state must be one of " + Arrays.toString(InstanceState.values()) + ", was '" + shown(text) + "'");
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    /** A caller's text in a message: bounded, so that garbage does not come back whole. */
    private static String shown(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
