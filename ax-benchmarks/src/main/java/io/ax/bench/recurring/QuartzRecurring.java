package io.ax.bench.recurring;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.bench.db.QuartzProbeJob;
import io.ax.bench.db.QuartzSetup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
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
 * transactions of 1,000 before the scheduler starts. Misfire threshold: Quartz's default 60 s.
 */
final class QuartzRecurring implements RecurringSystem {

    private final Postgres pg;
    private Scheduler scheduler;
    private Load load;

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
        this.load = load;
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
                if (jobs.size() == QuartzSetup.STORE_CHUNK) {
                    QuartzSetup.store(pg, scheduler, jobs);
                }
            }
        }
        QuartzSetup.store(pg, scheduler, jobs);
        pg.analyze(QuartzSetup.SCHEMA);
    }

    @Override
    public void start() throws Exception {
        // Storing 10,000+ jobs takes a while; a trigger's first fire was computed when it was stored, so Quartz
        // would start by catching up on every second of the set-up. Move each group's first fire to its first
        // boundary after now, as if the triggers had been created at start (as AX's and db-scheduler's are).
        Instant now = Instant.now();
        try (HikariDataSource ds = pg.pool(QuartzSetup.SCHEMA, 1);
                Connection c = ds.getConnection();
                PreparedStatement update = c.prepareStatement(
                        "update qrtz_triggers set start_time = ?, next_fire_time = ? where trigger_group = ?")) {
            for (Load.Group g : load.groups()) {
                update.setLong(1, now.toEpochMilli());
                update.setLong(2, g.cadence().nextAfter(now).toEpochMilli());
                update.setString(3, g.prefix());
                update.executeUpdate();
            }
        }
        scheduler.start();
    }

    @Override
    public void tearDown() throws Exception {
        QuartzSetup.destroy(pg, scheduler);
        scheduler = null;
    }
}
