package io.ax.bench.db;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

/**
 * The no-op Quartz job: Quartz instantiates jobs by class, so the probe of the current run is handed over through
 * a static field, set before the scheduler starts.
 */
public final class QuartzProbeJob implements Job {

    private static volatile Probe probe;

    public static void reportTo(Probe p) {
        probe = p;
    }

    @Override
    public void execute(JobExecutionContext context) {
        probe.executed(context.getScheduledFireTime().toInstant());
    }
}
