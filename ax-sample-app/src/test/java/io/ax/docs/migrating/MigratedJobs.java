package io.ax.docs.migrating;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import org.springframework.stereotype.Component;

/** The migration guide's "after": {@link DbSchedulerTasks}' tasks as AX jobs. */
@Component
public class MigratedJobs {

    private final Sessions sessions;
    private final Reports reports;
    private final Shop shop;

    public MigratedJobs(Sessions sessions, Reports reports, Shop shop) {
        this.sessions = sessions;
        this.reports = reports;
        this.shop = shop;
    }

    // tag::after-recurring[]
    @AxJob(name = "purge-sessions", fixedDelay = "5m", timeout = "1m")
    public void purgeSessions() {
        sessions.purgeExpired(); // the next run starts 5 minutes after this one ended, as with FixedDelay
    }

    @AxJob(name = "daily-report", cron = "0 30 6 ? * MON-FRI", zone = "Europe/Berlin", timeout = "10m")
    public void dailyReport(AxContext context) {
        reports.build(context.scheduledTime()); // db-scheduler's execution time
    }
    // end::after-recurring[]

    // tag::after-one-time[]
    public record CloseOrder(long orderId) {}

    @AxJob(name = "close-unpaid-order", timeout = "10s", retry = @AxJob.Retry(times = "5", base = "1s"))
    public void closeUnpaidOrder(AxContext context) {
        CloseOrder close = context.payload(CloseOrder.class); // JSON, through the application's mapper
        shop.closeIfStillOpen(close.orderId());
    }
    // end::after-one-time[]
}
