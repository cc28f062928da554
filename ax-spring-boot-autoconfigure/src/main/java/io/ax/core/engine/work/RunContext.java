package io.ax.core.engine.work;

import io.ax.core.AxContext;
import io.ax.core.AxIdempotency;
import io.ax.core.InstanceOrigin;
import io.ax.core.PayloadCodec;
import io.ax.core.TaskInstance;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.store.InstanceStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link AxContext} of one attempt. The payload and the key are read from the store the first time the task
 * asks for them, on its own thread: a task that never reads them costs no query.
 */
final class RunContext implements AxContext {

    private final String taskName;
    private final String instanceId;
    private final int attempt;
    private final long epoch;
    private final Instant scheduledTime;
    private final String nodeId;
    private final Map<String, String> params;
    private final InstanceStore store;
    private final PayloadCodec codec;
    private final AxIdempotency idempotency;
    private final Workflows workflows;

    private boolean payloadRead;
    private byte[] payload;

    RunContext(
            String taskName,
            String instanceId,
            int attempt,
            long epoch,
            Instant scheduledTime,
            String nodeId,
            Map<String, String> params,
            InstanceStore store,
            PayloadCodec codec,
            AxIdempotency idempotency,
            Workflows workflows) {
        this.taskName = taskName;
        this.instanceId = instanceId;
        this.attempt = attempt;
        this.epoch = epoch;
        this.scheduledTime = scheduledTime;
        this.nodeId = nodeId;
        this.params = params;
        this.store = store;
        this.codec = codec;
        this.idempotency = idempotency;
        this.workflows = workflows;
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
    public long epoch() {
        return epoch;
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    @Override
    public Map<String, String> params() {
        return params;
    }

    @Override
    public String key() {
        Optional<TaskInstance> instance = store.find(instanceId);
        return instance.filter(i -> i.origin() == InstanceOrigin.DELAYED)
                .map(TaskInstance::key)
                .orElse(null);
    }

    @Override
    public String runId() {
        if (!workflows.graph().contains(taskName)) {
            return null; // no query for the tasks of no workflow
        }
        return store.find(instanceId).map(workflows::runOf).orElse(null);
    }

    @Override
    public Map<String, String> upstreamResults() {
        if (workflows.graph().upstream(taskName).isEmpty()) {
            return Map.of();
        }
        String run = runId();
        return run == null ? Map.of() : workflows.upstreamResults(taskName, run);
    }

    @Override
    public synchronized byte[] payloadBytes() {
        if (!payloadRead) {
            payload = store.payload(instanceId).orElse(null);
            payloadRead = true;
        }
        return payload == null ? null : payload.clone();
    }

    @Override
    public <T> T payload(Class<T> type) {
        byte[] bytes = payloadBytes();
        if (bytes == null) {
            return null;
        }
        if (type == byte[].class) {
            return type.cast(bytes);
        }
        if (type == String.class) {
            return type.cast(new String(bytes, StandardCharsets.UTF_8));
        }
        return codec.decode(bytes, type);
    }

    @Override
    public boolean idempotent(String key, Duration ttl) {
        return idempotency.claim(key, ttl);
    }

    @Override
    public String toString() {
        return "RunContext[" + taskName + " " + instanceId + " attempt " + attempt + "]";
    }
}
