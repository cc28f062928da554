package io.ax.core;

/**
 * Thrown by a handler or an executor to have its failed attempt tried again at once, whatever the task's retry
 * policy: the attempt is recorded FAILED with this exception's message, and the next attempt (its number one more)
 * is dispatched without a back-off, as many times as it is thrown. For a job that knows its failure passes with a
 * second try (a Quartz {@code JobExecutionException} with {@code refireImmediately}, say). Any other exception fails
 * the attempt as the retry policy says; as the policy counts attempts, those retried at once count among them.
 */
public class RetryNowException extends AxException {

    /**
     * An exception asking for another attempt at once.
     *
     * @param message why the attempt failed, recorded in its error
     * @param cause the failure, or null
     */
    public RetryNowException(String message, Throwable cause) {
        super(message, cause);
    }
}
