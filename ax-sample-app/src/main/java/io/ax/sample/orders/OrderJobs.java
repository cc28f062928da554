package io.ax.sample.orders;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** The delayed side of the shop: an on-demand handler that {@link OrderController} schedules per order. */
@Component
public class OrderJobs {

    private static final Logger LOG = LoggerFactory.getLogger(OrderJobs.class);

    /** What the close instance carries: the order to close. */
    public record CloseOrder(long orderId) {}

    private final OrderRepository orders;

    public OrderJobs(OrderRepository orders) {
        this.orders = orders;
    }

    /**
     * Closes an order that is still unpaid when its payment window ends. No trigger: it runs only when scheduled.
     * Paying cancels this instance; if the payment comes too late to cancel it, the conditional update below still
     * leaves a paid order alone, and running twice (at-least-once) changes nothing either: the update is fenced by
     * the attempt's token as well as by the order's state.
     */
    // tag::close-order[]
    @AxJob(name = "closeUnpaidOrder", timeout = "10s", retry = @AxJob.Retry(times = "5", base = "1s", max = "1m"))
    public void closeUnpaidOrder(AxContext context) {
        CloseOrder close = context.payload(CloseOrder.class);
        // the fencing token: a later attempt of this close (after a takeover) carries a higher one, and the order's
        // row refuses a lower one, so an attempt whose node was taken for dead cannot undo what its successor did
        if (orders.close(close.orderId(), context.fencingToken())) {
            LOG.info("Order {} closed: not paid in time", close.orderId());
        }
    }
    // end::close-order[]
}
