package io.ax.core;

import java.time.Duration;
import java.time.Instant;

/**
 * One execution to schedule through {@link AxScheduler}: {@code ScheduleRequest.of("closeOrder").after(
 * Duration.ofMinutes(30)).payload(orderId).key("order-" + orderId + ":close")}. Immutable; each method returns a
 * copy.
 *
 * @param handler the name of an on-demand task
 * @param at when to run it; exactly one of {@code at} and {@code delay} is set
 * @param delay how long from the moment it is scheduled
 * @param payload what the handler reads through {@link AxContext}: a String, a byte[], an object, or null
 * @param key an optional key, unique per handler: scheduling the same key twice returns the first instance
 * @param durability PERSISTENT or MEMORY; null for the handler's own
 * @param pastAllowed whether a time in the past is accepted (the execution is then due at once)
 * @param priority its priority in its handler's pool, or null for the handler's own ({@link AxTask#priority()})
 */
public record ScheduleRequest(
        String handler,
        Instant at,
        Duration delay,
        Object payload,
        String key,
        Durability durability,
        boolean pastAllowed,
        Integer priority) {

    /**
     * @throws InvalidScheduleException when the handler name is null or blank; everything else is checked when the
     *     request is scheduled
     */
    public ScheduleRequest {
        if (handler == null || handler.isBlank()) {
            throw new InvalidScheduleException(
                    "A schedule request needs a handler name; got " + (handler == null ? "null" : "a blank one"));
        }
    }

    /** A request of its handler's priority. */
    public ScheduleRequest(
            String handler,
            Instant at,
            Duration delay,
            Object payload,
            String key,
            Durability durability,
            boolean pastAllowed) {
        this(handler, at, delay, payload, key, durability, pastAllowed, null);
    }

    /** A request for {@code handler}; give it a time with {@link #at} or {@link #after}. */
    public static ScheduleRequest of(String handler) {
        return new ScheduleRequest(handler, null, null, null, null, null, false, null);
    }

    /** Runs at {@code time}. */
    public ScheduleRequest at(Instant time) {
        return new ScheduleRequest(handler, time, null, payload, key, durability, pastAllowed, priority);
    }

    /** Runs {@code delay} after the moment it is scheduled. */
    public ScheduleRequest after(Duration delay) {
        return new ScheduleRequest(handler, null, delay, payload, key, durability, pastAllowed, priority);
    }

    public ScheduleRequest payload(Object payload) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    public ScheduleRequest key(String key) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * PERSISTENT (survives crashes) or MEMORY (held in this process's wheel only: cheapest, and lost if the
     * process dies before it runs).
     */
    public ScheduleRequest durability(Durability durability) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Starts before the handler's other waiting executions of lower priority when its pool is saturated (higher
     * first, -1000 to 1000; see {@link AxTask#priority()}); kept with the execution, so a retry has it too.
     */
    public ScheduleRequest priority(int priority) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /** Accepts a time in the past: the execution is due at once (e.g. replaying work that was missed). */
    public ScheduleRequest allowPast() {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, true, priority);
    }
}
