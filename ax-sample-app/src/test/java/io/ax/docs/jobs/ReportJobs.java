package io.ax.docs.jobs;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.MisfirePolicy;
import java.time.Instant;
import org.springframework.stereotype.Component;

/** The jobs guide's recurring jobs: a cron job, intervals and misfire policies. */
@Component
public class ReportJobs {

    /** What the jobs call: the application's own services. */
    public interface Services {
        int buildReport(Instant day);

        void pollInbox();

        void syncCatalog();

        void closeBillingHour(Instant hour);

        void warmCache();
    }

    private final Services services;

    public ReportJobs(Services services) {
        this.services = services;
    }

    // tag::cron-job[]
    @AxJob(
            name = "dailyReport",
            cron = "0 30 6 ? * MON-FRI", // 06:30 on weekdays
            zone = "Europe/Berlin",
            timeout = "5m",
            retry = @AxJob.Retry(times = "3", base = "10s"))
    public AxResult dailyReport(AxContext context) {
        int rows = services.buildReport(context.scheduledTime());
        return AxResult.success(rows + " rows"); // or throw, or return AxResult.failure(...)
    }
    // end::cron-job[]

    // tag::intervals[]
    @AxJob(name = "pollInbox", fixedRate = "30s", timeout = "20s")
    public void pollInbox() {
        services.pollInbox(); // every 30 s from the start, however long a run takes
    }

    @AxJob(name = "syncCatalog", fixedDelay = "5m", initialDelay = "1m", timeout = "2m")
    public void syncCatalog() {
        services.syncCatalog(); // starts 5 minutes after the previous run ended
    }
    // end::intervals[]

    // tag::misfire[]
    @AxJob(name = "hourlyBilling", cron = "@hourly", misfire = MisfirePolicy.FIRE_ALL, timeout = "10m")
    public void closeBillingHour(AxContext context) {
        services.closeBillingHour(context.scheduledTime()); // one run for every hour missed
    }

    @AxJob(name = "cacheWarmup", fixedRate = "1m", misfire = MisfirePolicy.SKIP, timeout = "30s")
    public void warmCache() {
        services.warmCache(); // the minutes missed do not matter
    }
    // end::misfire[]
}
