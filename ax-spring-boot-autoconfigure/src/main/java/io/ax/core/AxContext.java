package io.ax.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What a running task knows about its execution. Handed to {@link AxJob} methods that declare it as their only
 * parameter, and to every {@link AxExecutor}. Immutable.
 */
public interface AxContext {

    /** {@return the task's name, unique in the application} */
    String taskName();

    /**
     * {@return the instance's id} It is the same for every attempt of this instance: use it to make effects idempotent.
     */
    String instanceId();

    /** {@return the attempt number: 1 for the first try, 2 for the first retry} A replay starts again at 1. */
    int attempt();

    /**
     * {@return the time this instance was due} That is a trigger's fire time, the time a delayed execution was
     * scheduled for, or the moment a run on demand was asked for; the same for every attempt.
     */
    Instant scheduledTime();

    /** {@return the id of the node that runs this attempt} */
    String nodeId();

    /**
     * {@return the leader epoch under which this attempt was assigned to its node; 0 when none is known} A takeover of
     * the instance carries the new leader's. See {@link #fencingToken()}.
     */
    default long epoch() {
        return 0;
    }

    /**
     * A fencing token for this attempt's effects: it grows with every later attempt of this instance and with every
     * takeover of it, so a store the handler writes to can refuse the writes of an attempt that was overtaken (a node
     * frozen past its lease, cut off from the database, that wakes and goes on): keep the highest token written per
     * instance, and write only with a token not below it ({@code UPDATE ... WHERE token <= ?}). It is the {@link
     * #epoch()} and the {@link #attempt()}: {@code epoch * 2^20 + attempt}.
     *
     * <p>At-least-once execution means an attempt may run while a later one of the same instance runs elsewhere, when
     * its node was taken for dead; the token lets the handler's own storage keep the later one's effects. A replay of
     * a dead letter starts its attempts at 1 again: under the same epoch its tokens are below the last cycle's, so
     * key the fenced row by instance and cycle when a handler's instances may be replayed.
     *
     * @return this attempt's token, {@code epoch * 2^20 + attempt}; the attempt counts up to {@code 2^20 - 1}
     */
    default long fencingToken() {
        return (epoch() << 20) | Math.min(attempt(), (1 << 20) - 1);
    }

    /**
     * {@return the task's parameters by name, unmodifiable} A run on demand given parameters ({@link
     * AxScheduler#triggerNow(String, Map)}) sees them laid over the task's own.
     */
    Map<String, String> params();

    /**
     * {@return the caller's key of a delayed execution ({@link ScheduleRequest#key}), or null} Null as well for any
     * other instance, such as a trigger's fire.
     */
    default String key() {
        return null;
    }

    /**
     * {@return the id of the workflow run this instance belongs to, or null when its task is in no workflow (or was run
     * on its own)} A run's root instance has its own id as run id; every step of the run carries it.
     */
    default String runId() {
        return null;
    }

    /**
     * For a workflow step: the results of its upstream tasks in this run, by task name: the message of the {@link
     * AxResult} each returned (empty when it returned none), at most {@value #MAX_UPSTREAM_RESULT} characters each.
     *
     * @return the upstream results by task name; empty for any instance that is no workflow step
     */
    default Map<String, String> upstreamResults() {
        return Map.of();
    }

    /** The longest upstream result handed to a workflow step, in characters. */
    int MAX_UPSTREAM_RESULT = 1000;

    /**
     * {@return whether the instance carries a payload} A delayed execution carries the one it was scheduled with. A run
     * on demand given parameters carries them as its payload too, in the properties format.
     */
    default boolean hasPayload() {
        return payloadBytes() != null;
    }

    /** {@return a copy of the payload's bytes, or null when there is none} */
    default byte[] payloadBytes() {
        return null;
    }

    /** {@return the payload as UTF-8 text (as scheduled when it was a String), or null when there is none} */
    default String payloadString() {
        byte[] bytes = payloadBytes();
        return bytes == null ? null : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Reads the payload as an object of {@code type}, mapped by the configured {@link PayloadCodec} (JSON in a Spring
     * application); {@code String.class} and {@code byte[].class} read it as it was stored. What the codec throws when
     * it cannot read the bytes as {@code type} comes out of this method: left uncaught, it fails the attempt.
     *
     * @param <T> the payload's type
     * @param type the class to read the payload as
     * @return the payload, or null when there is none
     */
    default <T> T payload(Class<T> type) {
        return null;
    }

    /**
     * Claims an idempotency key for {@code ttl}, shared by every node (see {@link AxIdempotency}): true for the first
     * caller, false for every repeat meanwhile, such as a retry or a second delivery of this instance. Guard an effect
     * that must happen once with it: {@code if (context.idempotent("mail:" + orderId, Duration.ofDays(1))) send();}
     *
     * @param key the effect's key; not blank, at most {@value AxIdempotency#MAX_KEY_LENGTH} characters
     * @param ttl how long the claim lasts; positive, and longer than the window in which a repeat can come
     * @return true for the first caller, false while the claim lasts
     * @throws IllegalArgumentException when the key is blank or too long, or the ttl is not positive
     * @throws AxException when no store can be reached to decide
     * @throws UnsupportedOperationException when this context has no idempotency keys (a hand-made context)
     */
    default boolean idempotent(String key, Duration ttl) {
        throw new UnsupportedOperationException("this AxContext has no idempotency keys");
    }
}
