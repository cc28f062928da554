package io.ax.adoption;

import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Work its authors meant to run once per cluster: under ShedLock's locks. */
@Component
public class LockedJobs {

    private final RunLog log;

    LockedJobs(RunLog log) {
        this.log = log;
    }

    @Scheduled(cron = "*/4 * * * * *")
    @SchedulerLock(name = "invoices", lockAtMostFor = "PT20S")
    public void invoices() {
        LockAssert.assertLocked();
        log.run("invoices", () -> RunLog.work(100));
    }

    /** The lock is shorter than the delay: ShedLock alone lets a late replica run the same turn again. */
    // tag::shedlock-before[]
    @Scheduled(fixedDelay = 2000)
    @SchedulerLock(name = "payouts", lockAtLeastFor = "PT1S")
    public void payouts() {
        LockAssert.assertLocked();
        log.run("payouts", () -> RunLog.work(60));
    }
    // end::shedlock-before[]

    @Scheduled(fixedRate = 3000)
    @SchedulerLock(name = "reconcile", lockAtLeastFor = "PT2S")
    public void reconcile() {
        LockAssert.assertLocked();
        log.run("reconcile", () -> RunLog.work(150));
    }

    @Scheduled(cron = "3/5 * * * * *")
    @SchedulerLock(name = "exports")
    public void exports() {
        LockAssert.assertLocked();
        log.run("exports", () -> RunLog.work(40));
    }
}
