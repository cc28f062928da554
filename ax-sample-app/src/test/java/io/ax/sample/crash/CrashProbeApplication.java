package io.ax.sample.crash;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A node for the crash tests: AX on the test's database with on-demand handlers that write down each execution, so a
 * test can prove from the database that every task ran, and none before its time (the delayed-task crash test), or
 * that an attempt cut short by its node's death ran again elsewhere, once (the takeover test). Only the beans of this
 * package are scanned: none of the sample's jobs run here.
 */
@SpringBootApplication
public class CrashProbeApplication {

    public static void main(String[] args) {
        SpringApplication.run(CrashProbeApplication.class, args);
    }

    /** The handler: records the start of each execution. */
    @Component
    public static class Probe {

        /** Where executions are written; the test creates it. */
        public static final String RUNS = "crash_run";

        private final JdbcTemplate jdbc;

        public Probe(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        /** Retried: an execution cut short by the kill is FAILED at the restart, and runs again. */
        @AxJob(name = "crashProbe", timeout = "10s", retry = @AxJob.Retry(times = "3", base = "100ms"))
        public void run(AxContext context) {
            long startedMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
            jdbc.update(
                    "INSERT INTO " + RUNS + " (instance_id, attempt, started_us) VALUES (?, ?, ?)",
                    context.instanceId(),
                    context.attempt(),
                    startedMicros);
        }

        /** Where the takeover probe's executions are written, with the node that ran each; the test creates it. */
        public static final String TAKEOVER_RUNS = "takeover_run";

        /**
         * The application's default retry policy (none: {@code ax.retry.times} is 0). Its first attempt writes down
         * its start and then waits until its node is killed; any later attempt writes down its start and ends.
         */
        @AxJob(name = "takeoverProbe", timeout = "60s")
        public void hangFirst(AxContext context) throws InterruptedException {
            jdbc.update(
                    "INSERT INTO " + TAKEOVER_RUNS + " (instance_id, attempt, node) VALUES (?, ?, ?)",
                    context.instanceId(),
                    context.attempt(),
                    context.nodeId());
            if (context.attempt() == 1) {
                // nothing releases it: the attempt runs until its node is killed (or, at most, until its timeout)
                new java.util.concurrent.CountDownLatch(1).await(60, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }
}
