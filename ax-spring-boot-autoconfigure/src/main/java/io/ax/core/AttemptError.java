package io.ax.core;

import java.time.Instant;

/**
 * How one attempt ended badly, as its dead letter records it.
 *
 * @param attempt the attempt number, 1-based
 * @param outcome FAILED or TIMEOUT
 * @param error the reason the audit trail recorded: the exception's class and message, the failure the handler
 *     returned, or how long the attempt ran before it timed out
 * @param at when the attempt ended
 */
public record AttemptError(int attempt, InstanceState outcome, String error, Instant at) {}
