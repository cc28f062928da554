package io.ax.adoption;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** More recurring work without a lock: placeholders, a repeated declaration, a fast rate. */
@Component
public class SyncJobs {

    private final RunLog log;

    SyncJobs(RunLog log) {
        this.log = log;
    }

    @Scheduled(fixedDelayString = "${ordinary.sync-delay:2500}")
    public void syncPartners() {
        log.run("syncPartners", () -> RunLog.work(90));
    }

    @Scheduled(fixedRate = 1500)
    public void heartbeat() {
        log.run("heartbeat", () -> RunLog.work(10));
    }
}
