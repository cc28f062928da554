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
