package io.ax.testing;

import io.ax.core.AxContext;
import io.ax.core.AxIdempotency;
import io.ax.core.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A hand-made {@link AxContext} for a plain unit test of a handler, without an engine:
 *
 * <pre>{@code
 * AxContext context = AxTestContext.forTask("closeUnpaidOrder")
 *         .attempt(2)
 *         .payload(new CloseOrder(42), codec)
 *         .build();
 * jobs.closeUnpaidOrder(context);
 * }</pre>
 *
 * <p>Unless set, the context is of attempt 1 of instance {@code test-instance}, due at 2026-01-01T00:00:00Z, on node
 * {@code test-node} under epoch 1, without parameters, key, workflow run or payload. Its idempotency keys are its own:
 * the first claim of a key is true, every repeat on the same context false; the ttl is checked as the engine checks it,
 * but never runs out. A builder; not thread-safe. The context it builds is.
 */
public final class AxTestContext {

    private final String taskName;
    private String instanceId = "test-instance";
    private int attempt = 1;
    private Instant scheduledTime = Instant.parse("2026-01-01T00:00:00Z");
    private String nodeId = "test-node";
    private long epoch = 1;
    private final Map<String, String> params = new LinkedHashMap<>();
    private String key;
    private String runId;
    private final Map<String, String> upstreamResults = new LinkedHashMap<>();
    private byte[] payload;
    private PayloadCodec codec = PayloadCodec.none();

    private AxTestContext(String taskName) {
        this.taskName = requireText(taskName, "taskName");
    }

    /**
     * Starts a context of the first attempt of an instance of {@code taskName}.
     *
     * @param taskName the task's name; not blank
     * @return a builder with the defaults
     * @throws IllegalArgumentException when {@code taskName} is null or blank
     */
    public static AxTestContext forTask(String taskName) {
        return new AxTestContext(taskName);
    }

    /**
     * Sets the instance's id; default {@code test-instance}.
     *
     * @param instanceId the id; not blank
     * @return this builder
     * @throws IllegalArgumentException when {@code instanceId} is null or blank
     */
    public AxTestContext instanceId(String instanceId) {
        this.instanceId = requireText(instanceId, "instanceId");
        return this;
    }

    /**
     * Sets the attempt number; default 1, the first try.
     *
     * @param attempt 1 or more
     * @return this builder
     * @throws IllegalArgumentException when {@code attempt} is below 1
     */
    public AxTestContext attempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be 1 or more, was " + attempt);
        }
        this.attempt = attempt;
        return this;
    }

    /**
     * Sets the time the instance was due; default 2026-01-01T00:00:00Z.
     *
     * @param scheduledTime the time; not null
     * @return this builder
     * @throws NullPointerException when {@code scheduledTime} is null
     */
    public AxTestContext scheduledTime(Instant scheduledTime) {
        this.scheduledTime = Objects.requireNonNull(scheduledTime, "scheduledTime");
        return this;
    }

    /**
     * Sets the id of the node that runs the attempt; default {@code test-node}.
     *
     * @param nodeId the id; not blank
     * @return this builder
     * @throws IllegalArgumentException when {@code nodeId} is null or blank
     */
    public AxTestContext nodeId(String nodeId) {
        this.nodeId = requireText(nodeId, "nodeId");
        return this;
    }

    /**
     * Sets the leader epoch of the attempt, which its {@link AxContext#fencingToken()} is made of; default 1.
     *
     * @param epoch 0 or more
     * @return this builder
     * @throws IllegalArgumentException when {@code epoch} is negative
     */
    public AxTestContext epoch(long epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be 0 or more, was " + epoch);
        }
        this.epoch = epoch;
        return this;
    }

    /**
     * Adds a parameter, or replaces the value of one added before.
     *
     * @param name the parameter's name; not blank
     * @param value its value; not null
     * @return this builder
     * @throws IllegalArgumentException when {@code name} is null or blank
     * @throws NullPointerException when {@code value} is null
     */
    public AxTestContext param(String name, String value) {
        params.put(requireText(name, "name"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /**
     * Adds parameters, as {@link #param} adds each.
     *
     * @param params the parameters by name
     * @return this builder
     * @throws IllegalArgumentException when a name is blank
     * @throws NullPointerException when a value is null
     */
    public AxTestContext params(Map<String, String> params) {
        params.forEach(this::param);
        return this;
    }

    /**
     * Sets the caller's key of a delayed execution, which {@link AxContext#key()} returns; default none.
     *
     * @param key the key, or null for none
     * @return this builder
     */
    public AxTestContext key(String key) {
        this.key = key;
        return this;
    }

    /**
     * Makes it a workflow step of run {@code runId}, which {@link AxContext#runId()} returns; default none.
     *
     * @param runId the run's id, or null for none
     * @return this builder
     */
    public AxTestContext runId(String runId) {
        this.runId = runId;
        return this;
    }

    /**
     * Adds the result an upstream task of the workflow step returned, for {@link AxContext#upstreamResults()}.
     *
     * @param task the upstream task's name; not blank
     * @param message the message of the {@link io.ax.core.AxResult} it returned; not null, empty for none
     * @return this builder
     * @throws IllegalArgumentException when {@code task} is null or blank
     * @throws NullPointerException when {@code message} is null
     */
    public AxTestContext upstreamResult(String task, String message) {
        upstreamResults.put(requireText(task, "task"), Objects.requireNonNull(message, "message"));
        return this;
    }

    /**
     * Sets a payload of text or bytes, as {@link io.ax.core.AxScheduler#schedule} stores them. For any other object use
     * {@link #payload(Object, PayloadCodec)}.
     *
     * @param payload a String (stored as UTF-8) or a byte[] (copied); not null
     * @return this builder
     * @throws NullPointerException when {@code payload} is null
     * @throws io.ax.core.InvalidScheduleException when {@code payload} is neither a String nor a byte[]
     */
    public AxTestContext payload(Object payload) {
        return payload(payload, PayloadCodec.none());
    }

    /**
     * A payload object, mapped to bytes by {@code codec} as the engine would, and read back by {@link
     * AxContext#payload(Class)} through it. In a Spring test, inject the application's {@link PayloadCodec}.
     *
     * @param payload the payload: a String or a byte[] is stored as it is, any other object as {@code codec} writes it;
     *     not null
     * @param codec the codec that writes the payload now and reads it in {@link AxContext#payload(Class)}; not null
     * @return this builder
     * @throws NullPointerException when {@code payload} or {@code codec} is null
     */
    public AxTestContext payload(Object payload, PayloadCodec codec) {
        Objects.requireNonNull(payload, "payload");
        this.codec = Objects.requireNonNull(codec, "codec");
        if (payload instanceof String s) {
            this.payload = s.getBytes(StandardCharsets.UTF_8);
        } else if (payload instanceof byte[] b) {
            this.payload = b.clone();
        } else {
            this.payload = codec.encode(payload);
        }
        return this;
    }

    /**
     * Builds the context. Later changes to this builder do not reach it.
     *
     * @return the context, immutable but for its idempotency keys; thread-safe
     */
    public AxContext build() {
        return new Built(this);
    }

    private static String requireText(String s, String name) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return s;
    }

    private static final class Built implements AxContext {
        private final String taskName;
        private final String instanceId;
        private final int attempt;
        private final Instant scheduledTime;
        private final String nodeId;
        private final long epoch;
        private final Map<String, String> params;
        private final String key;
        private final String runId;
        private final Map<String, String> upstreamResults;
        private final byte[] payload;
        private final PayloadCodec codec;
        private final Set<String> claimed = ConcurrentHashMap.newKeySet();

        Built(AxTestContext b) {
            this.taskName = b.taskName;
            this.instanceId = b.instanceId;
            this.attempt = b.attempt;
            this.scheduledTime = b.scheduledTime;
            this.nodeId = b.nodeId;
            this.epoch = b.epoch;
            this.params = Map.copyOf(b.params);
            this.key = b.key;
            this.runId = b.runId;
            this.upstreamResults = Map.copyOf(b.upstreamResults);
            this.payload = b.payload;
            this.codec = b.codec;
        }

        @Override
        public String taskName() {
            return taskName;
        }

        @Override
        public String instanceId() {
            return instanceId;
        }

        @Override
        public int attempt() {
            return attempt;
        }

        @Override
        public Instant scheduledTime() {
            return scheduledTime;
        }

        @Override
        public String nodeId() {
            return nodeId;
        }

        @Override
        public long epoch() {
            return epoch;
        }

        @Override
        public Map<String, String> params() {
            return params;
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public String runId() {
            return runId;
        }

        @Override
        public Map<String, String> upstreamResults() {
            return upstreamResults;
        }

        @Override
        public byte[] payloadBytes() {
            return payload == null ? null : payload.clone();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T payload(Class<T> type) {
            if (payload == null) {
                return null;
            }
            if (type == String.class) {
                return (T) payloadString();
            }
            if (type == byte[].class) {
                return (T) payloadBytes();
            }
            return codec.decode(payload, type);
        }

        @Override
        public boolean idempotent(String key, Duration ttl) {
            AxIdempotency.check(key, ttl); // the engine's rules, so that a key the engine refuses fails here too
            return claimed.add(key);
        }

        @Override
        public String toString() {
            return "AxTestContext[" + taskName + " " + instanceId + " attempt " + attempt + "]";
        }
    }
}
