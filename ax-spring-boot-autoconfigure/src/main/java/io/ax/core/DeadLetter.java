package io.ax.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What remains of an instance whose retries were used up.
 *
 * @param instanceId the instance, which is DEAD
 * @param taskName its task
 * @param scheduledTime its fire time
 * @param params the task's parameters when it died
 * @param attempts every attempt's error, oldest first
 * @param lastStackTrace the full stack trace of the last failure; empty for a timeout
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
