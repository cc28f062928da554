package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import io.ax.test.net.FaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A replica whose database stops answering (a partition: packets are dropped, no connection is refused, and the
 * application's JDBC URL has no socket timeout, as most have not) is asked to stop with SIGTERM: its JVM exits, in
 * bounded time, instead of hanging in a statement that will never answer.
 */
class ShutdownTest {

    private static final String PREFIX = "axstop_";
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final ChildJvms jvms = new ChildJvms();
    private FaultProxy proxy;

    @AfterEach
    void stopAll() {
        jvms.close();
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aReplicaCutOffFromItsDatabaseStillExitsOnSigterm() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        JdbcTemplate db = new JdbcTemplate(dataSource);
        proxy = FaultProxy.start("127.0.0.1", 5432);
        Process node = jvms.start(
                "shutdown-cut",
                "256m",
                SampleApplication.class,
                List.of(
                        "--spring.profiles.active=postgres,no-demo-tasks",
                        "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + pg.databaseName(),
                        "--spring.datasource.username=" + pg.user(),
                        "--spring.datasource.password=" + pg.password(),
                        // the pool's own close waits this long for a connection attempt in flight (30 s by default):
                        // Hikari's wait, not AX's, so kept short here
                        "--spring.datasource.hikari.connection-timeout=5000",
                        "--ax.jdbc.table-prefix=" + PREFIX,
                        "--ax.node-id=cut",
                        "--ax.cluster.heartbeat=300ms",
                        "--ax.cluster.lease=1500ms",
                        "--ax.cluster.ack-timeout=1s",
                        "--ax.cluster.poll-interval=100ms",
                        "--ax.shutdown.await=2s",
                        "--server.port=0",
                        "--sample.tick.rate=100ms"));
        await().atMost(BOUND).until(() -> ChildJvms.count(db, PREFIX, "state = 'SUCCESS'") >= 5);

        proxy.blackhole(); // every statement in flight, and every new one, waits for an answer that never comes
        await().atMost(BOUND).until(() -> proxy.connections() > 0);
        long asked = System.nanoTime();
        node.destroy(); // SIGTERM: Spring's graceful shutdown, AX's stop

        assertThat(node.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS))
                .as("the JVM exits although its database does not answer")
                .isTrue();
        System.out.println(
                "Exited " + Duration.ofNanos(System.nanoTime() - asked).toMillis()
                        + " ms after SIGTERM, cut off from its database");
    }
}
