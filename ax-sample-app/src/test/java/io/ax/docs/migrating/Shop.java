package io.ax.docs.migrating;

/** The migration guide's shop, whose unpaid orders a one-time task closes. */
public interface Shop {

    /** Closes the order if it is still open; does nothing to a paid or closed one. */
    void closeIfStillOpen(long orderId);
}
