package io.ax.jdbc;

import io.ax.core.clock.TimeReference;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
        Long micros = jdbc.queryForObject(now, Long.class);
        if (micros == null) {
            throw new IllegalStateException("the database returned no time");
        }
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    @Override
    public String name() {
        return "database";
    }
}
