package io.ax.docs.failures;

import io.ax.core.AxIdempotency;
import java.time.Duration;
import org.springframework.stereotype.Component;

/** The failures guide: AX's idempotency keys outside a handler, through the AxIdempotency bean. */
@Component
class PaymentWebhook {

    interface Orders {
        void markPaid(long orderId);
    }

    private final AxIdempotency idempotency;
    private final Orders orders;

    PaymentWebhook(AxIdempotency idempotency, Orders orders) {
        this.idempotency = idempotency;
        this.orders = orders;
    }

    // tag::idempotency-bean[]
    /** The provider delivers each event at least once, maybe to two replicas at the same time. */
    void onPaid(String eventId, long orderId) {
        if (idempotency.claim("payment-event:" + eventId, Duration.ofDays(3))) {
            orders.markPaid(orderId);
        }
    }
    // end::idempotency-bean[]
}
