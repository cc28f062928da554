package io.ax.docs.start;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxScheduler;
import io.ax.core.ScheduleRequest;
import java.time.Duration;
import org.springframework.stereotype.Component;

/** The getting-started guide's delayed task: a handler without a trigger, scheduled through AxScheduler. */
// tag::delayed[]
@Component
class Invoices {

    record Reminder(long invoiceId) {}

    private final AxScheduler scheduler;

    Invoices(AxScheduler scheduler) {
        this.scheduler = scheduler;
    }

    void issued(long invoiceId) {
        scheduler.schedule(ScheduleRequest.of("remindUnpaidInvoice")
                .after(Duration.ofDays(7))
                .payload(new Reminder(invoiceId))
                .key("invoice-" + invoiceId + ":reminder"));
    }

    @AxJob(name = "remindUnpaidInvoice", timeout = "30s", retry = @AxJob.Retry(times = "5", base = "1m"))
    void remind(AxContext context) {
        Reminder reminder = context.payload(Reminder.class);
        // send the reminder for reminder.invoiceId(), unless it was paid meanwhile
    }
}
// end::delayed[]
