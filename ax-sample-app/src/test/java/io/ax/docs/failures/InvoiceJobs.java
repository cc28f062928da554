package io.ax.docs.failures;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.time.Duration;
import org.springframework.stereotype.Component;

/** The failures guide (an effect guarded by an idempotency key) and the testing guide (the handler tested alone). */
@Component
public class InvoiceJobs {

    /** Sends an order's invoice: an effect outside the database, which nothing can take back. */
    public interface Mailer {
        void send(String orderId);
    }

    private final Mailer mailer;

    public InvoiceJobs(Mailer mailer) {
        this.mailer = mailer;
    }

    // tag::idempotent[]
    @AxJob(name = "mailInvoice", timeout = "30s", retry = @AxJob.Retry(times = "3", base = "10s"))
    public void mailInvoice(AxContext context) {
        String orderId = context.payloadString();
        // true for the first claim of the key on any node, false for every repeat within 7 days
        if (context.idempotent("invoice-mail:" + orderId, Duration.ofDays(7))) {
            mailer.send(orderId);
        }
    }
    // end::idempotent[]
}
