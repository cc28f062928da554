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

    /** The task's static parameters. */
    Map<String, String> params();

    /** The caller's key of a scheduled execution, or null. */
    default String key() {
        return null;
    }

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
