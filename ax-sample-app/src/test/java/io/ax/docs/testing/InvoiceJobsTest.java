package io.ax.docs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxContext;
import io.ax.docs.failures.InvoiceJobs;
import io.ax.testing.AxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The testing guide: a handler tested alone, with a hand-made context and no engine. */
class InvoiceJobsTest {

    private final List<String> sent = new ArrayList<>();
    private final InvoiceJobs jobs = new InvoiceJobs(sent::add);

    // tag::handler-alone[]
    @Test
    void aRepeatMailsTheInvoiceOnce() {
        AxContext context = AxTestContext.forTask("mailInvoice")
                .attempt(2)
                .payload("order-42")
                .build();

        jobs.mailInvoice(context);
        jobs.mailInvoice(context); // the same context: its idempotency key is claimed already

        assertThat(sent).containsExactly("order-42");
    }
    // end::handler-alone[]

    @Test
    void theFencingTokenIsMadeOfTheEpochAndTheAttempt() {
        AxContext context =
                AxTestContext.forTask("mailInvoice").epoch(3).attempt(2).build();

        assertThat(context.fencingToken()).isEqualTo(3L * (1 << 20) + 2);
    }
}
