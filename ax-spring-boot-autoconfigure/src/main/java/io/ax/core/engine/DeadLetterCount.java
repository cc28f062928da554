package io.ax.core.engine;

import java.time.Instant;

/**
 * How many dead letters the store held when last asked, and when that was: an operator's figure that health checks
 * and dashboards show without asking the store on their own thread.
 *
 * @param count the dead letters then
 * @param readAt when the store answered, on the engine's clock
 */
public record DeadLetterCount(long count, Instant readAt) {}
