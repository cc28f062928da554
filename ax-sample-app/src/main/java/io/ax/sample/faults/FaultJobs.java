package io.ax.sample.faults;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The tasks of the fault runner's workload, one per promise worth checking. None is {@code concurrent}, so the
 * runner checks every series for overlap. Handlers that wait do so interruptibly: a timeout ends them. The tasks
 * limited across the cluster are {@link LimitedJobs}.
 */
@Component
@Profile("faults")
public class FaultJobs {

    /** Every second: one trigger decision per fire time, on whichever node leads. */
    @AxJob(name = "faults-cron", cron = "* * * * * ?", timeout = "5s")
    public void everySecond() {}

    /** Every second too, in a pool of its own: two series that fire together on different pools. */
    @AxJob(name = "faults-cron-side", cron = "* * * * * ?", timeout = "5s", group = "side")
    public void everySecondOnTheSide() {}

    /** Measured from the end of the previous run: the series must go on after its node dies mid-run. */
    @AxJob(name = "faults-fixed-delay", fixedDelay = "700ms", timeout = "5s")
    public void fixedDelay() {}

    /** Fires every second and runs longer: most fires are SKIPPED, and two runs must never overlap. */
    @AxJob(name = "faults-slow", cron = "* * * * * ?", timeout = "10s")
    public void slow() throws InterruptedException {
        Thread.sleep(1_500);
    }

    /** Slow and measured from its end: a run that overlaps the one before means two nodes held the series. */
    @AxJob(name = "faults-slow-delay", fixedDelay = "500ms", timeout = "10s")
    public void slowWithFixedDelay() throws InterruptedException {
        Thread.sleep(1_200);
    }

    /**
     * Three long runs, each measured from the end of the last: nearly always one of them runs on a node a fault
     * hits, so that its attempt is taken over, run again elsewhere, and must not overlap its own series.
     */
    @AxJob(name = "faults-long-a", fixedDelay = "300ms", timeout = "10s")
    public void longA() throws InterruptedException {
        Thread.sleep(3_000);
    }

    @AxJob(name = "faults-long-b", fixedDelay = "300ms", timeout = "10s")
    public void longB() throws InterruptedException {
        Thread.sleep(3_000);
    }

    @AxJob(name = "faults-long-c", fixedDelay = "300ms", timeout = "10s")
    public void longC() throws InterruptedException {
        Thread.sleep(3_000);
    }

    /** Always fails: two retries, then DEAD with a dead letter. */
    @AxJob(
            name = "faults-failing",
            cron = "0/3 * * * * ?",
            timeout = "5s",
            retry = @AxJob.Retry(times = "2", base = "200ms", max = "1s"))
    public void failing() {
        throw new IllegalStateException("faults-failing fails on purpose");
    }

    /** Fails its first attempt and succeeds on the next. */
    @AxJob(
            name = "faults-flaky",
            cron = "0/2 * * * * ?",
            timeout = "5s",
            retry = @AxJob.Retry(times = "3", base = "200ms", max = "1s"))
    public AxResult flaky(AxContext context) {
        if (context.attempt() == 1) {
            throw new IllegalStateException("faults-flaky fails its first attempt on purpose");
        }
        return AxResult.success("attempt " + context.attempt());
    }

    /** The root of a three-step workflow, every four seconds. */
    @AxJob(name = "faults-flow-root", cron = "0/4 * * * * ?", timeout = "5s")
    public AxResult flowRoot(AxContext context) {
        return AxResult.success("run " + context.runId());
    }

    /** Runs once per workflow run, after the root succeeded in that run. */
    @AxJob(name = "faults-flow-step", dependsOn = "faults-flow-root", timeout = "5s")
    public AxResult flowStep(AxContext context) throws InterruptedException {
        Thread.sleep(200);
        return AxResult.success(context.upstreamResults().get("faults-flow-root"));
    }

    /** The last step, after {@code faults-flow-step} succeeded in the same run. */
    @AxJob(name = "faults-flow-last", dependsOn = "faults-flow-step", timeout = "5s")
    public AxResult flowLast(AxContext context) {
        return AxResult.success(context.upstreamResults().get("faults-flow-step"));
    }

    /**
     * The delayed tasks {@link DelayedLoad} schedules: no trigger, run once each at its time. Some fail their first
     * attempt (as the payload says) and are retried.
     */
    @AxJob(name = DelayedLoad.HANDLER, timeout = "5s", retry = @AxJob.Retry(times = "2", base = "300ms", max = "1s"))
    public void delayed(AxContext context) {
        DelayedWork.failFirstIfAsked(context);
    }
}
