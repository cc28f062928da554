package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxIdempotency;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.IdempotencyContract;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The idempotency contract on a database's table (prefix {@code axred_}); one subclass per database. */
abstract class JdbcIdempotencyContract extends IdempotencyContract {

    static final String PREFIX = "axred_";

    private JdbcIdempotency idempotency;

    abstract TestDatabase database();

    @BeforeEach
    void tables() {
        TestDatabase db = database();
        db.dataSource(); // skips (or fails) here when the database does not answer
        if (!JdbcSchema.exists(db.dataSource(), PREFIX)) {
            db.migrate(PREFIX);
        } else {
            JdbcSchema.migrate(db.dataSource(), PREFIX);
        }
        idempotency = (JdbcIdempotency)
                new JdbcInstanceStore(db.dataSource(), PREFIX).idempotency().orElseThrow();
    }

    @Override
    protected AxIdempotency idempotency() {
        return idempotency;
    }

    @Test
    void expiredClaimsAreDeletedInBatches() {
        JdbcTemplate jdbc = new JdbcTemplate(database().dataSource());
        String key = "gone:" + UUID.randomUUID();
        assertThat(idempotency.claim(key, Duration.ofNanos(1_000))).isTrue(); // a microsecond: expired at once
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> idempotency.purgeExpired() >= 0
                        && jdbc.queryForObject(
                                        "SELECT COUNT(*) FROM " + PREFIX + "idempotency WHERE idem_key = ?",
                                        Integer.class,
                                        key)
                                == 0);
    }
}
