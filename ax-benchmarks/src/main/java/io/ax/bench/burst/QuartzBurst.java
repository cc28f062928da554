package io.ax.bench.burst;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.bench.db.QuartzProbeJob;
import io.ax.bench.db.QuartzSetup;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

/**
 * Quartz, clustered JDBC job store: {@code tasks} jobs, each with a one-shot SimpleTrigger due a second ago, stored
 * (in transactions of 1,000) before the scheduler starts. The misfire threshold is raised to one hour so
 * the backlog drains as ordinary fires rather than through the misfire handler (which would fire them now anyway,
 * 20 per transaction).
 */
final class QuartzBurst implements BurstSystem {

    static final long MISFIRE_THRESHOLD_MILLIS = 3_600_000;

    private final Postgres pg;
    private Scheduler scheduler;
    private HikariDataSource monitor;

    QuartzBurst(Postgres pg) {
        this.pg = pg;
    }

    @Override
    public String name() {
        return "Quartz clustered";
    }

    @Override
    public void prepare(int tasks, int threads, Probe probe) throws Exception {
        QuartzProbeJob.reportTo(probe);
        scheduler = QuartzSetup.create(pg, threads, MISFIRE_THRESHOLD_MILLIS);
        monitor = pg.pool(QuartzSetup.SCHEMA, 1);
        Date due = new Date(System.currentTimeMillis() - 1_000);
        Map<JobDetail, Set<? extends Trigger>> batch = new HashMap<>();
        for (int i = 0; i < tasks; i++) {
            JobDetail job = JobBuilder.newJob(QuartzProbeJob.class)
                    .withIdentity("j-" + i, "burst")
                    .build();
            Trigger trigger = TriggerBuilder.newTrigger()
                    .withIdentity("t-" + i, "burst")
                    .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                    .startAt(due)
                    .build();
            batch.put(job, Set.of(trigger));
            if (batch.size() == QuartzSetup.STORE_CHUNK) {
                QuartzSetup.store(pg, scheduler, batch);
            }
        }
        QuartzSetup.store(pg, scheduler, batch);
        pg.analyze(QuartzSetup.SCHEMA);
    }

    @Override
    public void start() throws Exception {
        scheduler.start();
    }

    @Override
    public boolean drained() throws Exception {
        try (Connection c = monitor.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "select (select count(*) from qrtz_triggers) + (select count(*) from qrtz_fired_triggers)")) {
            r.next();
            return r.getLong(1) == 0;
        }
    }

    @Override
    public void tearDown() throws Exception {
        monitor.close();
        QuartzSetup.destroy(pg, scheduler);
        scheduler = null;
    }
}
