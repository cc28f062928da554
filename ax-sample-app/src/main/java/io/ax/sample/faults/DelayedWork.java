package io.ax.sample.faults;

import io.ax.core.AxContext;

/**
 * The payload of a delayed task of the fault runner's workload.
 *
 * @param seq its number within the request that scheduled it
 * @param failFirst whether its first attempt fails, so that it is retried
 */
public record DelayedWork(int seq, boolean failFirst) {

    /**
     * Fails the attempt of {@code context} when it is the first and its payload asks for that; otherwise returns.
     *
     * @throws IllegalStateException to fail the attempt
     */
    static void failFirstIfAsked(AxContext context) {
        DelayedWork work = context.payload(DelayedWork.class);
        if (work != null && work.failFirst() && context.attempt() == 1) {
            throw new IllegalStateException(
                    context.taskName() + " " + work.seq() + " fails its first attempt on purpose");
        }
    }
}
