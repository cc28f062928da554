package io.ax.core.engine.threads;

import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/** What the engine asks of a scheduled thread of its own that has one periodic round and takes one-off work too. */
public final class OneThread {

    private OneThread() {}

    /** Whether nothing runs on the thread and nothing waits for it but periodic rounds. */
    public static boolean idle(ScheduledThreadPoolExecutor thread) {
        if (thread.getActiveCount() > 0) {
            return false;
        }
        for (Runnable queued : thread.getQueue()) {
            if (!(queued instanceof RunnableScheduledFuture<?> f) || !f.isPeriodic()) {
                return false;
            }
        }
        return true;
    }
}
