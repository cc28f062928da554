package io.ax.jdbc;

import io.ax.core.cluster.StoreIdentity;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which server a database is. PostgreSQL tells its system identifier ({@code pg_control_system()}), which a standby
 * made by a base backup shares with its primary, and the timeline it writes on (read from the name of its current WAL
 * file, which names the timeline at once, where the last checkpoint's may lag a promotion). MySQL tells its {@code
 * server_uuid}, its own for each server: a change is a failover, whose recent commits a node then checks. MariaDB
 * and H2 tell nothing that changes with a failover: there a node compares only its own writes. Thread-safe.
 */
final class JdbcStoreIdentity implements StoreIdentity {

    private static final System.Logger LOG = Loggers.get(JdbcStoreIdentity.class.getName());

    /** A standby (read through a plain URL during a failover) has no current WAL position: it reads timeline 0. */
    private static final String POSTGRES = "SELECT system_identifier::text, CASE WHEN pg_is_in_recovery() THEN ''"
            + " ELSE substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) END FROM pg_control_system()";

    private static final String MYSQL = "SHOW VARIABLES LIKE 'server_uuid'";

    private final JdbcTemplate jdbc;
    private final Vendor vendor;
    private volatile boolean refused;

    private JdbcStoreIdentity(JdbcTemplate jdbc, Vendor vendor) {
        this.jdbc = jdbc;
        this.vendor = vendor;
    }

    /** The identity of a PostgreSQL or MySQL database; null where the database tells none (MariaDB, H2). */
    static JdbcStoreIdentity of(JdbcTemplate jdbc, Vendor vendor) {
        Objects.requireNonNull(jdbc, "jdbc");
        if (vendor == Vendor.POSTGRESQL) {
            return new JdbcStoreIdentity(jdbc, vendor);
        }
        if (vendor == Vendor.MYSQL) {
            try {
                List<String> uuid = jdbc.query(MYSQL, (rs, n) -> rs.getString(2));
                return uuid.isEmpty() || uuid.get(0) == null || uuid.get(0).isBlank()
                        ? null // MariaDB: no server_uuid
                        : new JdbcStoreIdentity(jdbc, vendor);
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A database that refuses the question (no right to read {@code pg_control_system()}) is asked no more, said
     * once at WARN: the node then compares only its own writes.
     */
    @Override
    public Reading read() {
        if (refused) {
            return Reading.UNKNOWN;
        }
        try {
            if (vendor == Vendor.POSTGRESQL) {
                return jdbc.queryForObject(POSTGRES, (rs, n) -> {
                    String timeline = rs.getString(2);
                    return new Reading(
                            rs.getString(1), timeline == null || timeline.isEmpty() ? 0 : Long.parseLong(timeline, 16));
                });
            }
            List<String> uuid = jdbc.query(MYSQL, (rs, n) -> rs.getString(2));
            return uuid.isEmpty() ? Reading.UNKNOWN : new Reading(null, 0, uuid.get(0));
        } catch (org.springframework.jdbc.BadSqlGrammarException e) {
            refused = true;
            LOG.log(
                    Level.WARNING,
                    "The database does not tell which server it is ({0}); AX notices a store that went back in time"
                            + " by its own writes only",
                    e.getMostSpecificCause().getMessage());
            return Reading.UNKNOWN;
        }
    }
}
