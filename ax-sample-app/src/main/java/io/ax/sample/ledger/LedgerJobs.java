package io.ax.sample.ledger;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A transactional job (README "Effects committed exactly once"): each booking's row is written in the same
 * transaction as its instance's {@code SUCCESS}, so the ledger holds one row per successful instance, whatever
 * crashed, timed out or was retried on the way. On with {@code sample.ledger.enabled=true}; {@code sample.ledger.hold}
 * keeps each transaction open a while after the insert, as a slow handler would.
 */
@Component
@ConditionalOnBooleanProperty("sample.ledger.enabled")
public class LedgerJobs {

    private final JdbcTemplate jdbc;
    private final String table;
    private final Duration hold;

    public LedgerJobs(
            JdbcTemplate jdbc,
            @Value("${sample.ledger.table:sample_ledger}") String table,
            @Value("${sample.ledger.hold:0ms}") Duration hold) {
        if (!table.matches("[a-z_]{1,40}")) {
            throw new IllegalArgumentException("sample.ledger.table must be 1-40 of a-z and _, was '" + table + "'");
        }
        this.jdbc = jdbc;
        this.table = table;
        this.hold = hold;
        jdbc.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (instance_id VARCHAR(64) NOT NULL, attempt INT NOT NULL, node VARCHAR(200) NOT NULL)");
    }

    // tag::transactional[]
    @AxJob(
            name = "book",
            fixedRate = "${sample.ledger.rate:1s}",
            transactional = true,
            timeout = "10s",
            retry = @AxJob.Retry(times = "3", base = "200ms", max = "1s"))
    public void book(AxContext context) throws InterruptedException {
        jdbc.update(
                "INSERT INTO " + table + " (instance_id, attempt, node) VALUES (?, ?, ?)",
                context.instanceId(),
                context.attempt(),
                context.nodeId());
        Thread.sleep(hold.toMillis());
    }
    // end::transactional[]
}
