package io.ax.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What remains of an instance whose retries were used up. Stored when the instance goes DEAD, and read by replay and
 * the endpoint.
 *
 * @param instanceId the id of the instance, which is DEAD
 * @param taskName its task's name
 * @param scheduledTime its fire time
 * @param params the task's own parameters (not those given to a run on demand), with secret values hidden ({@link
 *     SecretParams}); unmodifiable
 * @param attempts the error of every failed or timed-out attempt in its audit trail, oldest first; unmodifiable
 * @param lastStackTrace the full stack trace of the last failure when it threw; else the last attempt's reason (a
 *     timeout's, a returned failure's); never null
 * @param diedAt when it went DEAD
 */
public record DeadLetter(
        String instanceId,
        String taskName,
        Instant scheduledTime,
        Map<String, String> params,
        List<AttemptError> attempts,
        String lastStackTrace,
        Instant diedAt) {

    /**
     * Checks and copies the components; a null {@code lastStackTrace} becomes empty.
     *
     * @param instanceId the instance's id; not null
     * @param taskName its task's name; not null
     * @param scheduledTime its fire time; not null
     * @param params the parameters to show; not null, and no null name or value
     * @param attempts the attempts' errors, oldest first; not null, and no null element
     * @param lastStackTrace the last failure's stack trace or reason; null for none
     * @param diedAt when it went DEAD; not null
     * @throws NullPointerException when a component that must be given is null
     */
    public DeadLetter {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(taskName, "taskName");
        Objects.requireNonNull(scheduledTime, "scheduledTime");
        params = Map.copyOf(params);
        attempts = List.copyOf(attempts);
        lastStackTrace = lastStackTrace == null ? "" : lastStackTrace;
        Objects.requireNonNull(diedAt, "diedAt");
    }
}
