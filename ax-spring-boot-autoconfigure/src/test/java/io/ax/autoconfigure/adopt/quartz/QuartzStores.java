package io.ax.autoconfigure.adopt.quartz;

import io.ax.test.jdbc.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.impl.jdbcjobstore.InvalidConfigurationException;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.simpl.CascadingClassLoadHelper;
import org.quartz.spi.SchedulerSignaler;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;

/**
 * A Quartz JDBC job store of its own on one of the test databases: tables created by the script Quartz ships for the
 * database (its {@code QRTZ_} prefix replaced by a random one), and clustered Quartz schedulers on them, which take
 * Quartz's database locks as every clustered node does.
 */
final class QuartzStores implements AutoCloseable {

    private static final Pattern COMMENT = Pattern.compile("(?m)^\\s*--.*$|(?m)^\\s*#.*$");

    final TestDatabase database;
    final DataSource dataSource;
    final String prefix;
    final String schedulerName;
    private final String provider;

    QuartzStores(TestDatabase database) {
        this.database = database;
        this.dataSource = database.dataSource();
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        this.prefix = "QI" + id.toUpperCase(Locale.ROOT) + "_";
        this.schedulerName = "import-" + id;
        this.provider = "ax-import-" + id;
        run(script(), false);
        DBConnectionManager.getInstance().addConnectionProvider(provider, new ConnectionProvider() {
            @Override
            public java.sql.Connection getConnection() throws SQLException {
                return dataSource.getConnection();
            }

            @Override
            public void shutdown() {}

            @Override
            public void initialize() {}
        });
    }

    /** The clustered scheduler of the store, in standby until started; {@code node} names it among the cluster. */
    Scheduler scheduler(String node) throws SchedulerException {
        Properties p = new Properties();
        p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, schedulerName);
        p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_ID, node);
        p.setProperty("org.quartz.threadPool.threadCount", "2");
        p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        p.setProperty(
                "org.quartz.jobStore.driverDelegateClass",
                database == TestDatabase.POSTGRESQL
                        ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate"
                        : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
        p.setProperty("org.quartz.jobStore.tablePrefix", prefix);
        p.setProperty("org.quartz.jobStore.isClustered", "true");
        p.setProperty("org.quartz.jobStore.clusterCheckinInterval", "1000");
        p.setProperty("org.quartz.jobStore.dataSource", provider);
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        return new StdSchedulerFactory(p).getScheduler();
    }

    /**
     * The clustered job store of the store's scheduler by itself, with no scheduler around it: a test drives its
     * acquisitions and fires by hand, as a scheduler's thread would. Shut it down after.
     */
    JobStoreTX jobStore(String node) throws SchedulerException, InvalidConfigurationException {
        JobStoreTX store = new JobStoreTX();
        store.setDataSource(provider);
        store.setTablePrefix(prefix);
        store.setInstanceName(schedulerName);
        store.setInstanceId(node);
        store.setIsClustered(true);
        store.setDriverDelegateClass(
                database == TestDatabase.POSTGRESQL
                        ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate"
                        : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
        CascadingClassLoadHelper classes = new CascadingClassLoadHelper();
        classes.initialize();
        store.initialize(classes, new SchedulerSignaler() {
            // the store tells its scheduler of changes; without one, nobody listens
            @Override
            public void notifyTriggerListenersMisfired(Trigger trigger) {}

            @Override
            public void notifySchedulerListenersFinalized(Trigger trigger) {}

            @Override
            public void notifySchedulerListenersJobDeleted(JobKey jobKey) {}

            @Override
            public void signalSchedulingChange(long candidateNewNextFireTime) {}

            @Override
            public void notifySchedulerListenersError(String message, SchedulerException cause) {}
        });
        return store;
    }

    /** The state Quartz's store keeps for a trigger of the default group. */
    String state(String trigger) throws SQLException {
        try (Connection c = dataSource.getConnection();
                var ps = c.prepareStatement("SELECT TRIGGER_STATE FROM " + prefix
                        + "TRIGGERS WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = 'DEFAULT'")) {
            ps.setString(1, schedulerName);
            ps.setString(2, trigger);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Override
    public void close() {
        run(script(), true);
    }

    private String script() {
        String name = database == TestDatabase.POSTGRESQL ? "tables_postgres.sql" : "tables_mysql_innodb.sql";
        try (InputStream in = Scheduler.class.getResourceAsStream("/org/quartz/impl/jdbcjobstore/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs Quartz's script with the prefix replaced: its drops only, or its creates only. */
    private void run(String script, boolean drops) {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement()) {
            for (String statement : COMMENT.matcher(script).replaceAll("").split(";")) {
                String sql = statement.strip().replaceAll("(?i)QRTZ_", prefix);
                boolean drop = sql.toUpperCase(Locale.ROOT).startsWith("DROP");
                if (sql.isEmpty() || sql.equalsIgnoreCase("commit") || drop != drops) {
                    continue;
                }
                st.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Quartz's tables cannot be made: " + e.getMessage(), e);
        }
    }
}
