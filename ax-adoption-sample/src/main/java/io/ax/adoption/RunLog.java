package io.ax.adoption;

import java.time.Instant;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The jobs' own record of their runs: a row when a run starts, its end written when it completes (a run whose node
 * was killed keeps no end), with the node that ran it.
 */
@Component
public class RunLog {

    private final JdbcTemplate jdbc;
    private final String node;

    RunLog(JdbcTemplate jdbc, @Value("${ordinary.node:local}") String node) {
        this.jdbc = jdbc;
        this.node = node;
        jdbc.execute("CREATE TABLE IF NOT EXISTS ordinary_runs (id VARCHAR(36) NOT NULL PRIMARY KEY,"
                + " job VARCHAR(80) NOT NULL, started_at BIGINT NOT NULL, ended_at BIGINT, node VARCHAR(40) NOT NULL,"
                + " fire_time BIGINT, counter BIGINT)");
    }

    /** Runs {@code work} as job {@code job}, recording its start and, once it completed, its end. */
    public void run(String job, Runnable work) {
        run(job, null, null, work);
    }

    /** As {@link #run(String, Runnable)}, with what a Quartz job knows: its scheduled fire time and its counter. */
    public void run(String job, Instant fireTime, Long counter, Runnable work) {
        String id = UUID.randomUUID().toString();
        jdbc.update(
                "INSERT INTO ordinary_runs (id, job, started_at, node, fire_time, counter) VALUES (?, ?, ?, ?, ?, ?)",
                id,
                job,
                System.currentTimeMillis(),
                node,
                fireTime == null ? null : fireTime.toEpochMilli(),
                counter);
        work.run();
        jdbc.update("UPDATE ordinary_runs SET ended_at = ? WHERE id = ?", System.currentTimeMillis(), id);
    }

    /** Some work: a short pause, as a real job waits on what it calls. */
    static void work(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
