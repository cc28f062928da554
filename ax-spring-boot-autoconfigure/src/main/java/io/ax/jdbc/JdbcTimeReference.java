package io.ax.jdbc;

import io.ax.core.clock.AxClock;
import io.ax.core.clock.TimeReference;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/** The database's clock, read in one statement: the cluster's reference clock when there is no Redis. */
final class JdbcTimeReference implements TimeReference {

    private final JdbcTemplate jdbc;
    private final String now;

    JdbcTimeReference(JdbcTemplate jdbc, Dialect dialect) {
        this.jdbc = jdbc;
        this.now = "SELECT " + dialect.nowMicros();
    }

    @Override
    public Instant read() {
        return read(AxClock.system()).remote();
    }

    /**
     * {@inheritDoc} Here the bracket starts once the connection is had: when the pool has none free (every thread
     * of a busy node writing), the wait for one would otherwise count, and the reading could be 100 ms and more
     * after the bracket's start.
     */
    @Override
    public Reading read(AxClock local) {
        Reading reading = jdbc.execute((ConnectionCallback<Reading>) connection -> {
            try (PreparedStatement statement = connection.prepareStatement(now)) {
                long before = local.nanoTime();
                Instant localBefore = local.instant();
                try (ResultSet rows = statement.executeQuery()) {
                    boolean answered = rows.next();
                    long micros = answered ? rows.getLong(1) : 0;
                    long roundTrip = local.nanoTime() - before;
                    return !answered || rows.wasNull()
                            ? null
                            : new Reading(localBefore, roundTrip, Instant.EPOCH.plus(micros, ChronoUnit.MICROS));
                }
            }
        });
        if (reading == null) {
            throw new IllegalStateException("the database returned no time");
        }
        return reading;
    }

    @Override
    public String name() {
        return "database";
    }
}
