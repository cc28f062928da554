package io.ax.core;

import java.time.Duration;
import java.time.Instant;

/**
 * One execution to schedule through {@link AxScheduler}: {@code ScheduleRequest.of("closeOrder").after(
 * Duration.ofMinutes(30)).payload(orderId).key("order-" + orderId + ":close")}. Immutable; each method returns a
 * copy.
 *
 * @param handler the name of an on-demand task; not blank
 * @param at when to run it; exactly one of {@code at} and {@code delay} is set
 * @param delay how long from the moment it is scheduled; ignored when {@code at} is set
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
     * Checks the handler name; everything else is checked when the request is scheduled.
     *
     * @param handler the name of an on-demand task; not blank
     * @param at when to run it, or null
     * @param delay how long from the moment it is scheduled, or null; ignored when {@code at} is set
     * @param payload a String, a byte[], an object, or null
     * @param key an optional key, unique per handler, or null
     * @param durability PERSISTENT or MEMORY; null for the handler's own
     * @param pastAllowed whether a time in the past is accepted
     * @param priority its priority in its handler's pool, or null for the handler's own
     * @throws InvalidScheduleException when the handler name is null or blank
     */
    public ScheduleRequest {
        if (handler == null || handler.isBlank()) {
            throw new InvalidScheduleException(
                    "A schedule request needs a handler name; got " + (handler == null ? "null" : "a blank one"));
        }
    }

    /**
     * A request of its handler's priority.
     *
     * @param handler the name of an on-demand task; not blank
     * @param at when to run it, or null
     * @param delay how long from the moment it is scheduled, or null; ignored when {@code at} is set
     * @param payload a String, a byte[], an object, or null
     * @param key an optional key, unique per handler, or null
     * @param durability PERSISTENT or MEMORY; null for the handler's own
     * @param pastAllowed whether a time in the past is accepted
     * @throws InvalidScheduleException when the handler name is null or blank
     */
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

    /**
     * A request for {@code handler}; give it a time with {@link #at} or {@link #after}.
     *
     * @param handler the name of an on-demand task; not blank
     * @return a request without a time, payload or key, of the handler's durability and priority
     * @throws InvalidScheduleException when the handler name is null or blank
     */
    public static ScheduleRequest of(String handler) {
        return new ScheduleRequest(handler, null, null, null, null, null, false, null);
    }

    /**
     * Runs at {@code time}, in place of any delay.
     *
     * @param time when to run; not in the past unless {@link #allowPast()}, checked when scheduled
     * @return a copy with that time
     */
    public ScheduleRequest at(Instant time) {
        return new ScheduleRequest(handler, time, null, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Runs {@code delay} after the moment it is scheduled, in place of any time.
     *
     * @param delay how long from the moment it is scheduled; zero or positive, checked when scheduled
     * @return a copy with that delay
     */
    public ScheduleRequest after(Duration delay) {
        return new ScheduleRequest(handler, null, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Gives the execution a payload, which the handler reads through {@link AxContext#payload(Class)}.
     *
     * @param payload a String (stored as UTF-8), a byte[], an object the configured {@link PayloadCodec} maps, or null
     *     for none
     * @return a copy with that payload
     */
    public ScheduleRequest payload(Object payload) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Gives the execution a key, unique per handler: scheduling the same key again returns the first instance's id and
     * writes nothing. Use it to schedule an effect once however often the code that schedules it runs.
     *
     * @param key 1 to {@value TaskInstance#MAX_KEY_LENGTH} characters, not starting with {@code @}, without control
     *     characters or unpaired surrogates; null for none
     * @return a copy with that key
     */
    public ScheduleRequest key(String key) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Sets where the execution lives: PERSISTENT (survives crashes) or MEMORY (held in this process's wheel only:
     * cheapest, and lost if the process dies before it runs).
     *
     * @param durability PERSISTENT or MEMORY; null for the handler's own
     * @return a copy with that durability
     */
    public ScheduleRequest durability(Durability durability) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Sets the execution's priority in its handler's pool: when the pool is saturated, waiting instances of higher
     * priority start first (see {@link AxTask#priority()}). Kept with the execution, so a retry has it too.
     *
     * @param priority from {@value AxTask#MIN_PRIORITY} to {@value AxTask#MAX_PRIORITY}, checked when scheduled
     * @return a copy with that priority
     */
    public ScheduleRequest priority(int priority) {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, pastAllowed, priority);
    }

    /**
     * Accepts a time in the past: the execution is due at once (e.g. replaying work that was missed). The time must
     * still lie within {@link AxScheduler#HORIZON}.
     *
     * @return a copy that accepts a past time
     */
    public ScheduleRequest allowPast() {
        return new ScheduleRequest(handler, at, delay, payload, key, durability, true, priority);
    }
}
