package io.ax.docs.failures;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;

/** The failures guide: the instance id as the idempotency key of an effect elsewhere. */
@Component
class RenewalJobs {

    record Renewal(String customerId, BigDecimal amount) {}

    interface Renewals {
        List<Renewal> dueAt(Instant time);
    }

    /** A payment provider that keeps the first charge of an idempotency key and answers a repeat with it. */
    interface Payments {
        void charge(String customerId, BigDecimal amount, String idempotencyKey);
    }

    private final Renewals renewals;
    private final Payments payments;

    RenewalJobs(Renewals renewals, Payments payments) {
        this.renewals = renewals;
        this.payments = payments;
    }

    // tag::instance-id[]
    @AxJob(name = "chargeRenewals", cron = "0 0 4 * * ?", timeout = "10m", retry = @AxJob.Retry(times = "3"))
    void chargeRenewals(AxContext context) {
        for (Renewal renewal : renewals.dueAt(context.scheduledTime())) {
            // the same key in every attempt of this instance: a repeat charges nobody twice
            String key = context.instanceId() + ":" + renewal.customerId();
            payments.charge(renewal.customerId(), renewal.amount(), key);
        }
    }
    // end::instance-id[]
}
