package io.ax.testing.app;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/** One job per behaviour the tester must handle; each records the fire times it ran for. */
@Component
public class KitJobs {

    public final List<Instant> beats = new CopyOnWriteArrayList<>();
    public final List<Instant> reminders = new CopyOnWriteArrayList<>();
    public final List<String> steps = new CopyOnWriteArrayList<>();
    /** What holds the blocking job; counted down when a test is over. */
    public final CountDownLatch release = new CountDownLatch(1);

    @AxJob(name = "beat", cron = "0/5 * * * * ?")
    public void beat(AxContext context) {
        beats.add(context.scheduledTime());
    }

    /** Fails twice, then succeeds; its back-off is a minute, then two. */
    @AxJob(name = "flaky", retry = @AxJob.Retry(times = "3", base = "1m", max = "10m"))
    public AxResult flaky(AxContext context) {
        if (context.attempt() < 3) {
            throw new IllegalStateException("flaky failure on attempt " + context.attempt());
        }
        return AxResult.success("succeeded on attempt " + context.attempt());
    }

    @AxJob(name = "doomed", retry = @AxJob.Retry(times = "2", base = "30s"))
    public void doomed() {
        throw new IllegalStateException("the downstream system is gone");
    }

    /** On demand only: what a test schedules with a delay. */
    @AxJob(name = "remind")
    public void remind(AxContext context) {
        reminders.add(context.scheduledTime());
    }

    /** Blocks in real time, past its timeout on the test's clock. */
    @AxJob(name = "stuck", timeout = "1m")
    public void stuck() throws InterruptedException {
        release.await(30, TimeUnit.SECONDS);
    }

    @AxJob(name = "extract", params = "day=today")
    public AxResult extract(AxContext context) {
        steps.add("extract " + context.params().getOrDefault("day", "today"));
        return AxResult.success("rows.csv");
    }

    @AxJob(name = "load", dependsOn = "extract")
    public AxResult load(AxContext context) {
        steps.add("load " + context.upstreamResults().get("extract"));
        return AxResult.success("loaded");
    }
}
