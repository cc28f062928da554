package io.ax.sample.orders;

import java.time.Instant;

/**
 * An order of the sample shop.
 *
 * @param id its id
 * @param item what was ordered
 * @param state OPEN until paid (PAID) or closed for want of payment (CLOSED)
 * @param closeInstance the AX instance that closes it if it is still unpaid when its payment window ends
 * @param closesAt when that happens: the close instance's scheduled time, decided by AX on the cluster's clock
 */
public record Order(long id, String item, State state, String closeInstance, Instant closesAt) {

    /** The life of an order. */
    public enum State {
        OPEN,
        PAID,
        CLOSED
    }
}
