package io.ax.sample.faults;

/**
 * The payload of a delayed task of the fault runner's workload.
 *
 * @param seq its number within the request that scheduled it
 * @param failFirst whether its first attempt fails, so that it is retried
 */
public record DelayedWork(int seq, boolean failFirst) {}
