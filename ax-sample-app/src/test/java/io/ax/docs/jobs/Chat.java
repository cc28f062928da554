package io.ax.docs.jobs;

/** The application's way to post to a chat channel, which the jobs guide's {@link NotifyExecutor} uses. */
public interface Chat {
    boolean post(String channel, String text);
}
