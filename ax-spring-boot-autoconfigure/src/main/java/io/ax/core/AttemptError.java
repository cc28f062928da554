package io.ax.core;

import java.time.Instant;

/**
 * How one attempt ended badly.
 *
 * @param attempt the attempt number, 1-based
 * @param outcome FAILED or TIMEOUT
 * @param error the error message
 * @param at when
 */
public record AttemptError(int attempt, InstanceState outcome, String error, Instant at) {}
