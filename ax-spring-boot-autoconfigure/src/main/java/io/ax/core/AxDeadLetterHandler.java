package io.ax.core;

/**
 * What happens once an instance went DEAD and its dead letter was recorded in the store (recording is not up to
 * the handler: replay and the endpoint read it there). The default handler in a Spring application publishes an
 * {@link AxDeadLetterEvent}; declare a bean of this type to do something else (or more) instead.
 *
 * <p>Called on the engine's events thread ({@code ax-events-1}), never on a scheduling or worker thread: a slow
 * handler delays other events, not fires. An exception is logged and otherwise ignored. Must be thread-safe.
 */
@FunctionalInterface
public interface AxDeadLetterHandler {

    /**
     * Handles the dead letter of an instance that just went DEAD.
     *
     * @param deadLetter the dead letter, already stored; its parameters' secret values are hidden ({@link
     *     SecretParams})
     */
    void handle(DeadLetter deadLetter);
}
