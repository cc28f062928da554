package io.ax.sample;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** The jobs of the sample: one per behaviour worth watching. */
@Component
public class SampleJobs {

    private static final Logger LOG = LoggerFactory.getLogger(SampleJobs.class);

    /** A cron job every five seconds. */
    @AxJob(name = "heartbeat", cron = "${sample.heartbeat.cron:0/5 * * * * ?}", timeout = "10s")
    public void heartbeat(AxContext context) {
        LOG.info("heartbeat for {}", context.scheduledTime());
    }

    /** A fixed-rate job. */
    @AxJob(name = "tick", fixedRate = "${sample.tick.rate:3s}", timeout = "5s")
    public void tick() {
        LOG.debug("tick");
    }

    /** Fails on its first two attempts and succeeds on the third: watch the retries in the audit trail. */
    @AxJob(
            name = "flaky",
            fixedDelay = "${sample.flaky.delay:30s}",
            initialDelay = "1s",
            timeout = "10s",
            retry = @AxJob.Retry(times = "3", base = "${sample.retry.base:1s}", max = "10s"))
    public AxResult flaky(AxContext context) {
        if (context.attempt() < 3) {
            throw new IllegalStateException("flaky failure on attempt " + context.attempt());
        }
        return AxResult.success("succeeded on attempt " + context.attempt());
    }

    /** Never succeeds: after its retries it goes DEAD with a dead letter. */
    @AxJob(
            name = "doomed",
            fixedDelay = "${sample.doomed.delay:60s}",
            initialDelay = "2s",
            timeout = "10s",
            retry = @AxJob.Retry(times = "2", base = "${sample.retry.base:1s}", max = "10s"))
    public void doomed() {
        throw new IllegalStateException("the downstream system is gone");
    }

    /** Runs longer than its timeout: its thread is interrupted and the instance goes TIMEOUT. */
    @AxJob(name = "slow", fixedDelay = "${sample.slow.delay:60s}", initialDelay = "3s", timeout = "1s")
    public void slow() throws InterruptedException {
        Thread.sleep(30_000);
    }
}
