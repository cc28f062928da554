package io.ax.bench.db;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;

/**
 * Quartz as a clustered JDBC scheduler on PostgreSQL ({@code JobStoreTX}, {@code PostgreSQLDelegate},
 * {@code isClustered=true}), its tables made from the {@code tables_postgres.sql} Quartz ships in its jar, in a
 * schema of its own. Threads: {@code AxBenchQuartz_Worker-<n>}, {@code AxBenchQuartz_QuartzSchedulerThread}, and
 * {@code QuartzScheduler_AxBenchQuartz-<id>_ClusterManager / _MisfireHandler}: all contain {@link #NAME}.
 */
public final class QuartzSetup {

    public static final String NAME = "AxBenchQuartz";
    public static final String SCHEMA = "bench_quartz";
    private static final String DATA_SOURCE = "benchDS";

    /** Jobs stored per transaction. */
    public static final int STORE_CHUNK = 1_000;

    private QuartzSetup() {}

    /**
     * Stores the jobs in one transaction and empties the map. After the first chunk the tables get planner
     * statistics (see {@link Postgres#analyze}): without them the lookups Quartz makes per stored job run as
     * sequential scans and storing grows quadratic (20,000 jobs took 72 s, 5,000 took 6.5 s).
     */
    public static void store(Postgres pg, Scheduler scheduler, Map<JobDetail, Set<? extends Trigger>> jobs)
            throws SchedulerException, SQLException {
        if (jobs.isEmpty()) {
            return;
        }
        boolean first = firstChunk(scheduler);
        scheduler.scheduleJobs(jobs, true);
        jobs.clear();
        if (first) {
            pg.analyze(SCHEMA);
        }
    }

    private static boolean firstChunk(Scheduler scheduler) throws SchedulerException {
        return scheduler.getJobGroupNames().isEmpty();
    }

    /** Recreates the schema and builds a scheduler in standby. */
    public static Scheduler create(Postgres pg, int threads, long misfireThresholdMillis)
            throws SQLException, java.io.IOException, SchedulerException {
        pg.recreateSchema(SCHEMA);
        HikariDataSource ds = pg.pool(SCHEMA, threads + 4);
        Postgres.runScript(ds, Postgres.resource("org/quartz/impl/jdbcjobstore/tables_postgres.sql"));
        DBConnectionManager.getInstance().addConnectionProvider(DATA_SOURCE, new ConnectionProvider() {
            @Override
            public Connection getConnection() throws SQLException {
                return ds.getConnection();
            }

            @Override
            public void shutdown() {
                ds.close();
            }

            @Override
            public void initialize() {}
        });
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", NAME);
        p.setProperty("org.quartz.scheduler.instanceId", "AUTO");
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", Integer.toString(threads));
        p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow", "0");
        p.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
        p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        p.setProperty("org.quartz.jobStore.driverDelegateClass", "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
        p.setProperty("org.quartz.jobStore.dataSource", DATA_SOURCE);
        p.setProperty("org.quartz.jobStore.tablePrefix", "QRTZ_");
        p.setProperty("org.quartz.jobStore.isClustered", "true");
        p.setProperty("org.quartz.jobStore.clusterCheckinInterval", "20000");
        p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        p.setProperty("org.quartz.jobStore.misfireThreshold", Long.toString(misfireThresholdMillis));
        return new StdSchedulerFactory(p).getScheduler();
    }

    /** Shuts the scheduler down (waiting for running jobs; that also closes its pool) and drops the schema. */
    public static void destroy(Postgres pg, Scheduler scheduler) throws SchedulerException, SQLException {
        scheduler.shutdown(true);
        pg.dropSchema(SCHEMA);
    }

    /** Whether a thread belongs to Quartz. */
    public static boolean owns(String threadName) {
        return threadName.contains(NAME);
    }
}
