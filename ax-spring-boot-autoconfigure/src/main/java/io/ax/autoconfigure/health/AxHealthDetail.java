package io.ax.autoconfigure.health;

/**
 * A detail the {@code ax} health component shows without letting it change the status: a part AX can do without
 * (Redis, whose work falls back to the database).
 */
public interface AxHealthDetail {

    /** The detail's name in the health response. */
    String name();

    /** Its value now; never throws. */
    Object value();
}
