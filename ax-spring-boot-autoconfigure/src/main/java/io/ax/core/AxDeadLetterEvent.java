package io.ax.core;

import java.util.Objects;

/**
 * Published (as a Spring application event, when running in Spring) when an instance goes DEAD.
 *
 * @param deadLetter the dead letter that was stored
 */
public record AxDeadLetterEvent(DeadLetter deadLetter) {

    /**
     * Checks that the dead letter is given.
     *
     * @param deadLetter the dead letter that was stored; not null
     * @throws NullPointerException when {@code deadLetter} is null
     */
    public AxDeadLetterEvent {
        Objects.requireNonNull(deadLetter, "deadLetter");
    }
}
