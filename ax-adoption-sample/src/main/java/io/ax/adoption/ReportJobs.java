package io.ax.adoption;

import java.util.concurrent.TimeUnit;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Recurring work without a lock: Spring alone would run every fire on every replica. */
@Component
public class ReportJobs {

    private final RunLog log;

    ReportJobs(RunLog log) {
        this.log = log;
    }

    // tag::scheduled-before[]
    @Scheduled(cron = "*/5 * * * * *")
    public void salesSummary() {
        log.run("salesSummary", () -> RunLog.work(80));
    }

    @Scheduled(fixedDelay = 2, timeUnit = TimeUnit.SECONDS)
    public void compactCache() {
        log.run("compactCache", () -> RunLog.work(120));
    }
    // end::scheduled-before[]

    @Scheduled(cron = "0/3 * * * * MON-SUN")
    public void stockLevels() {
        log.run("stockLevels", () -> RunLog.work(40));
    }

    @Scheduled(cron = "2/4 * * * * *", zone = "Europe/Berlin")
    public void berlinDigest() {
        log.run("berlinDigest", () -> RunLog.work(30));
    }

    @Scheduled(cron = "${ordinary.audit-cron:*/6 * * * * ?}")
    public void auditTrail() {
        log.run("auditTrail", () -> RunLog.work(60));
    }

    @Scheduled(fixedRate = 2000)
    public void refreshRates() {
        log.run("refreshRates", () -> RunLog.work(50));
    }

    @Scheduled(fixedRateString = "PT3S", initialDelay = 1000)
    public void pollInbox() {
        log.run("pollInbox", () -> RunLog.work(70));
    }
}
