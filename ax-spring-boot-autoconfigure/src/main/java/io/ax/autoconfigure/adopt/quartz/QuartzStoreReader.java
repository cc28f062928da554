package io.ax.autoconfigure.adopt.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.quartz.Calendar;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.DriverDelegate;
import org.quartz.impl.jdbcjobstore.NoSuchDelegateException;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.simpl.CascadingClassLoadHelper;
import org.quartz.spi.OperableTrigger;
import org.slf4j.LoggerFactory;

/**
 * Reads one scheduler's jobs, triggers and calendars out of a Quartz JDBC job store (PostgreSQL, MySQL or MariaDB)
 * through Quartz's own driver delegates, so that job data (serialized or as properties) and every trigger type read
 * exactly as Quartz reads them; and takes Quartz's {@code TRIGGER_ACCESS} row lock, which a Quartz node using database
 * locks (every clustered one) holds to acquire and to fire triggers. Works on the connection it is given, inside its
 * caller's transaction; not thread-safe.
 */
final class QuartzStoreReader {

    /** The state the import leaves an imported trigger in: Quartz neither acquires nor resumes a trigger in it. */
    static final String IMPORTED = "AX_IMPORTED";

    private static final String LOCK = "TRIGGER_ACCESS";
    private static final String WAITING = "WAITING";
    private static final String ACQUIRED = "ACQUIRED";
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,30}");

    /** A trigger as the store keeps it, or why it cannot be read (its job class missing, say). */
    record StoredTrigger(
            TriggerKey key,
            String state,
            OperableTrigger trigger,
            JobDetail job,
            Calendar calendar,
            int triggersOfJob,
            String unreadable) {}

    private final Connection connection;
    private final String prefix;
    private final String schedulerName;
    private final DriverDelegate delegate;
    private final CascadingClassLoadHelper classes;

    /**
     * @param connection a connection to the store, in a transaction of the caller (auto-commit off)
     * @param prefix the tables' prefix, as Quartz's {@code org.quartz.jobStore.tablePrefix}
     * @param schedulerName the scheduler's name, as Quartz's {@code org.quartz.scheduler.instanceName}
     * @param useProperties whether job data is stored as properties ({@code org.quartz.jobStore.useProperties})
     * @throws IllegalArgumentException for a prefix that is no table name, or a database Quartz has no delegate for
     */
    QuartzStoreReader(Connection connection, String prefix, String schedulerName, boolean useProperties)
            throws SQLException {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException(
                    "tablePrefix must be letters, digits and _ (at most 31), was '" + prefix + "'");
        }
        if (schedulerName == null || schedulerName.isBlank()) {
            throw new IllegalArgumentException("schedulerName must not be blank");
        }
        this.connection = connection;
        this.prefix = prefix;
        this.schedulerName = schedulerName;
        this.classes = new CascadingClassLoadHelper();
        classes.initialize();
        this.delegate = delegate(connection, prefix, schedulerName, useProperties, classes);
    }

    private static DriverDelegate delegate(
            Connection connection,
            String prefix,
            String schedulerName,
            boolean useProperties,
            CascadingClassLoadHelper classes)
            throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        DriverDelegate delegate;
        if (product.contains("postgres")) {
            delegate = new PostgreSQLDelegate();
        } else if (product.contains("mysql") || product.contains("mariadb") || product.contains("h2")) {
            delegate = new StdJDBCDelegate();
        } else {
            throw new IllegalArgumentException("the import reads Quartz stores on PostgreSQL, MySQL and MariaDB, and"
                    + " this database is " + connection.getMetaData().getDatabaseProductName());
        }
        try {
            delegate.initialize(
                    LoggerFactory.getLogger(QuartzStoreReader.class),
                    prefix,
                    schedulerName,
                    "ax-import",
                    classes,
                    useProperties,
                    null);
        } catch (NoSuchDelegateException e) {
            throw new IllegalStateException("Quartz's delegate cannot start: " + e.getMessage(), e);
        }
        return delegate;
    }

    /**
     * Takes Quartz's {@code TRIGGER_ACCESS} lock until the transaction ends, as a clustered Quartz node does (creating
     * its row when the store has none yet).
     */
    void lockTriggers() throws SQLException {
        String select = "SELECT LOCK_NAME FROM " + prefix + "LOCKS WHERE SCHED_NAME = ? AND LOCK_NAME = ? FOR UPDATE";
        try (PreparedStatement ps = connection.prepareStatement(select)) {
            ps.setString(1, schedulerName);
            ps.setString(2, LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (PreparedStatement ps =
                connection.prepareStatement("INSERT INTO " + prefix + "LOCKS (SCHED_NAME, LOCK_NAME) VALUES (?, ?)")) {
            ps.setString(1, schedulerName);
            ps.setString(2, LOCK);
            ps.executeUpdate();
        }
    }

    /** Every trigger of the scheduler, with its state, job and calendar; ordered by group and name. */
    List<StoredTrigger> triggers() throws SQLException {
        List<TriggerKey> keys = new ArrayList<>();
        for (String group : delegate.selectTriggerGroups(connection)) {
            keys.addAll(delegate.selectTriggersInGroup(connection, GroupMatcher.triggerGroupEquals(group)));
        }
        keys.sort(TriggerKey::compareTo);
        List<StoredTrigger> triggers = new ArrayList<>();
        for (TriggerKey key : keys) {
            triggers.add(read(key));
        }
        return triggers;
    }

    private StoredTrigger read(TriggerKey key) throws SQLException {
        String state = delegate.selectTriggerState(connection, key);
        try {
            OperableTrigger trigger = delegate.selectTrigger(connection, key);
            JobDetail job = delegate.selectJobDetail(connection, trigger.getJobKey(), classes);
            if (job == null) {
                return unreadable(key, state, "its job " + trigger.getJobKey() + " is not in the store");
            }
            Calendar calendar = null;
            if (trigger.getCalendarName() != null) {
                calendar = delegate.selectCalendar(connection, trigger.getCalendarName());
                if (calendar == null) {
                    return unreadable(
                            key, state, "its calendar '" + trigger.getCalendarName() + "' is not in the store");
                }
            }
            int ofJob = delegate.selectNumTriggersForJob(connection, job.getKey());
            return new StoredTrigger(key, state, trigger, job, calendar, ofJob, null);
        } catch (ClassNotFoundException e) {
            return unreadable(key, state, "class " + e.getMessage() + " is not on this application's class path");
        } catch (java.io.IOException | org.quartz.JobPersistenceException | RuntimeException e) {
            return unreadable(key, state, "Quartz cannot read it: " + e);
        }
    }

    private static StoredTrigger unreadable(TriggerKey key, String state, String why) {
        return new StoredTrigger(key, state, null, null, null, 0, why);
    }

    /** The jobs of the scheduler that no trigger fires, ordered by group and name. */
    List<JobKey> jobsWithoutTriggers() throws SQLException {
        List<JobKey> jobs = new ArrayList<>();
        for (String group : delegate.selectJobGroups(connection)) {
            for (JobKey job : delegate.selectJobsInGroup(connection, GroupMatcher.jobGroupEquals(group))) {
                if (delegate.selectNumTriggersForJob(connection, job) == 0) {
                    jobs.add(job);
                }
            }
        }
        jobs.sort(JobKey::compareTo);
        return jobs;
    }

    /**
     * Moves a trigger out of Quartz's hands, conditional on the state it was read in: no Quartz node acquires it
     * after, and one that acquired it before finds it no longer {@code ACQUIRED} when it comes to fire it, and drops
     * it.
     *
     * <p>A {@code WAITING} trigger may have become {@code ACQUIRED} since it was read: a Quartz node acquiring one
     * trigger at a time does so without the lock, by a conditional update of its state alone (its next fire time
     * stays, and it cannot fire it before this transaction ends), so that change is taken as well.
     *
     * @return whether it was in {@code expected} state (or acquired meanwhile) and moved
     */
    boolean markImported(TriggerKey key, String expected) throws SQLException {
        if (WAITING.equals(expected)) {
            return delegate.updateTriggerStateFromOtherStates(connection, key, IMPORTED, WAITING, ACQUIRED, ACQUIRED)
                    == 1;
        }
        return delegate.updateTriggerStateFromOtherState(connection, key, IMPORTED, expected) == 1;
    }
}
