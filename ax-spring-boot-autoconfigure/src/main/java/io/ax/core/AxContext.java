package io.ax.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What a running task knows about its execution. Handed to {@link AxJob} methods that declare it as their only
 * parameter, and to every {@link AxExecutor}. Immutable.
 */
public interface AxContext {

    /** The task's unique name. */
    String taskName();

    /** The instance id; the same for every attempt of this instance. Use it to make effects idempotent. */
    String instanceId();

    /** The attempt number, 1 for the first try. */
    int attempt();

    /** The fire time this instance belongs to. */
    Instant scheduledTime();

    /** The node executing it. */
    String nodeId();

    /**
     * The leader epoch under which this attempt was assigned to its node (a takeover of the instance carries the new
     * leader's); 0 when none is known. See {@link #fencingToken()}.
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
     */
    default long fencingToken() {
        return (epoch() << 20) | Math.min(attempt(), (1 << 20) - 1);
    }

    /** The task's static parameters. */
    Map<String, String> params();

    /** The caller's key of a scheduled execution, or null. */
    default String key() {
        return null;
    }

    /**
     * The workflow run this instance belongs to, or null when its task is in no workflow (or was run on its own).
     * A run's root instance has its own id as run id; every step of the run carries it.
     */
    default String runId() {
        return null;
    }

    /**
     * For a workflow step: the results of its upstream tasks in this run, by task name: the message of the {@link
     * AxResult} each returned (empty when it returned none), at most {@value #MAX_UPSTREAM_RESULT} characters each.
     * Empty for any other instance.
     */
    default Map<String, String> upstreamResults() {
        return Map.of();
    }

    /** The longest upstream result handed to a workflow step, in characters. */
    int MAX_UPSTREAM_RESULT = 1000;

    /** Whether the instance was scheduled with a payload. */
    default boolean hasPayload() {
        return payloadBytes() != null;
    }

    /** The payload's bytes, or null when there is none. */
    default byte[] payloadBytes() {
        return null;
    }

    /** The payload as UTF-8 text (as scheduled when it was a String), or null when there is none. */
    default String payloadString() {
        byte[] bytes = payloadBytes();
        return bytes == null ? null : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The payload as an object of {@code type}, mapped by the configured {@link PayloadCodec} (JSON in a Spring
     * application); {@code String.class} and {@code byte[].class} read it as it was stored. Null when there is
     * none.
     */
    default <T> T payload(Class<T> type) {
        return null;
    }

    /**
     * Claims an idempotency key for {@code ttl}, shared by every node (see {@link AxIdempotency}): true for the first
     * caller, false for every repeat meanwhile, such as a retry or a second delivery of this instance. Guard an effect
     * that must happen once with it: {@code if (context.idempotent("mail:" + orderId, Duration.ofDays(1))) send();}
     *
     * @throws IllegalArgumentException when the key is blank or too long, or the ttl is not positive
     * @throws UnsupportedOperationException when this context has no idempotency keys (a hand-made context)
     */
    default boolean idempotent(String key, Duration ttl) {
        throw new UnsupportedOperationException("this AxContext has no idempotency keys");
    }
}
