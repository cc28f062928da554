package io.ax.bench.recurring;

import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.bench.db.QuartzProbeJob;
import io.ax.bench.db.QuartzSetup;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

/**
 * Quartz, clustered JDBC job store on PostgreSQL: one job with one cron trigger per benchmark task, all stored in
 * one transaction before the scheduler starts. Misfire threshold: Quartz's default 60 s.
 */
final class QuartzRecurring implements RecurringSystem {

    private final Postgres pg;
    private Scheduler scheduler;

    QuartzRecurring(Postgres pg) {
        this.pg = pg;
    }

    @Override
    public String name() {
        return "Quartz";
    }

    @Override
    public boolean owns(String threadName) {
        return QuartzSetup.owns(threadName);
    }

    @Override
    public void setUp(Load load, int threads, Probe probe) throws Exception {
        QuartzProbeJob.reportTo(probe);
        scheduler = QuartzSetup.create(pg, threads, 60_000);
        Map<JobDetail, Set<? extends Trigger>> jobs = new HashMap<>();
        for (Load.Group g : load.groups()) {
            for (int i = 0; i < g.count(); i++) {
                String name = g.prefix() + "-" + i;
                JobDetail job = JobBuilder.newJob(QuartzProbeJob.class)
                        .withIdentity(name, g.prefix())
                        .build();
                Trigger trigger = TriggerBuilder.newTrigger()
                        .withIdentity(name, g.prefix())
                        .withSchedule(CronScheduleBuilder.cronSchedule(g.cadence().quartzCron)
                                .inTimeZone(TimeZone.getTimeZone("UTC")))
                        .startNow()
                        .build();
                jobs.put(job, Set.of(trigger));
            }
        }
        scheduler.scheduleJobs(jobs, true);
    }

    @Override
    public void start() throws Exception {
        scheduler.start();
    }

    @Override
    public void tearDown() throws Exception {
        QuartzSetup.destroy(pg, scheduler);
        scheduler = null;
    }
}
