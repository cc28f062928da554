package io.ax.docs.jobs;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import org.springframework.stereotype.Component;

/** The jobs guide's handlers of delayed executions: a close for an unpaid order, a reminder for a customer. */
@Component
public class ShopJobs {

    /** The application's side of the shop. */
    public interface Shop {
        /** Closes the order if it is still open; does nothing to a paid or closed one. */
        void closeIfStillOpen(long orderId);

        void remind(String customerId, String key);
    }

    private final Shop shop;

    public ShopJobs(Shop shop) {
        this.shop = shop;
    }

    // tag::delayed-handler[]
    public record CloseOrder(long orderId) {}

    @AxJob(name = "closeUnpaidOrder", timeout = "10s", retry = @AxJob.Retry(times = "5", base = "1s"))
    public void close(AxContext context) {
        CloseOrder close = context.payload(CloseOrder.class); // JSON, through the application's mapper
        shop.closeIfStillOpen(close.orderId()); // runs at least once: make it idempotent
    }
    // end::delayed-handler[]

    // tag::reminder-handler[]
    @AxJob(name = "sendReminder", timeout = "30s")
    public void sendReminder(AxContext context) {
        String customerId = context.payloadString(); // scheduled as a String
        shop.remind(customerId, context.key()); // the request's key, or null when it had none
    }
    // end::reminder-handler[]
}
