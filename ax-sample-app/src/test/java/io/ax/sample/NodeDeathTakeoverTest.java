package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.executor.LocalMethodExecutor;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import io.ax.sample.crash.CrashProbeApplication;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two nodes, each a JVM of its own, on one PostgreSQL database, under the default retry settings (no retries): the
 * node that runs a one-shot task is killed with SIGKILL in the middle of its attempt, and the attempt runs again on
 * the other node, once, as a takeover rather than a failure of the handler.
 */
class NodeDeathTakeoverTest {

    private static final String PREFIX = "axtakeover_";
    private static final String RUNS = CrashProbeApplication.Probe.TAKEOVER_RUNS;
    private static final Duration BOUND = Duration.ofSeconds(60);
    /** How long two JVMs may take to start: seconds on a quiet machine, more than a minute on a starved one. */
    private static final Duration START = Duration.ofSeconds(240);

    private static final Duration HEARTBEAT = Duration.ofMillis(300);
    private static final Duration LEASE = Duration.ofMillis(1_500);

    private final ChildJvms jvms = new ChildJvms();
    private JdbcTemplate db;

    @AfterEach
    void stopAll() {
        jvms.close();
    }

    @Test
    void anAttemptWhoseNodeIsKilledRunsAgainOnTheOtherNodeOnce() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        db = new JdbcTemplate(dataSource);
        db.execute("DROP TABLE IF EXISTS " + RUNS);
        db.execute("CREATE TABLE " + RUNS
                + " (instance_id VARCHAR(36) NOT NULL, attempt INT NOT NULL, node VARCHAR(200) NOT NULL)");
        JdbcSchema.migrate(dataSource, PREFIX);

        Map<String, Process> nodes = new HashMap<>();
        for (String name : List.of("t1", "t2")) {
            nodes.put(name, start(pg, name));
        }
        await().atMost(START).until(() -> live().size() == 2);

        // this JVM only writes: its engine is never started, so it runs nothing
        AxEngine client = AxEngine.builder()
                .store(new JdbcInstanceStore(dataSource, PREFIX))
                .router(new ExecutorRouter(List.of(new LocalMethodExecutor())))
                .nodeId("takeover-client")
                .build();
        client.register(AxTask.builder("takeoverProbe").build());
        String id = client.schedule(ScheduleRequest.of("takeoverProbe").after(Duration.ZERO));

        await().atMost(BOUND).until(() -> runs(id).size() == 1);
        String first = runs(id).get(0).node();
        ChildJvms.kill(nodes.get(first));

        await().atMost(BOUND).until(() -> "SUCCESS".equals(ChildJvms.state(db, PREFIX, id)));
        jvms.close(); // every node gone: nothing can run it again behind the assertions

        String other = first.equals("t1") ? "t2" : "t1";
        assertThat(runs(id)).containsExactly(new Run(1, first), new Run(2, other));
        List<Map<String, Object>> trail = db.queryForList(
                "SELECT from_state, to_state, node, attempt, reason FROM " + PREFIX
                        + "audit WHERE instance_id = ? ORDER BY id",
                id);
        assertThat(trail)
                .filteredOn(row -> "FAILED".equals(row.get("to_state")))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.get("node")).isEqualTo(other);
                    assertThat((String) row.get("reason"))
                            .startsWith("takeover: node " + first + " stopped heartbeating while it ran attempt 1");
                });
        assertThat(trail)
                .extracting(row -> row.get("to_state") + " by " + row.get("node"))
                .containsExactly(
                        "CREATED by takeover-client",
                        "SCHEDULED by takeover-client",
                        "RUNNING by " + first,
                        "FAILED by " + other,
                        "RETRYING by " + other,
                        "RUNNING by " + other,
                        "SUCCESS by " + other);
    }

    private record Run(int attempt, String node) {}

    private List<Run> runs(String id) {
        return db.query(
                "SELECT attempt, node FROM " + RUNS + " WHERE instance_id = ? ORDER BY attempt",
                (rs, i) -> new Run(rs.getInt(1), rs.getString(2)),
                id);
    }

    /** Nodes whose heartbeat is younger than the lease, on the database's clock. */
    private List<String> live() {
        return db.queryForList(
                "SELECT node_id FROM " + PREFIX + "node WHERE heartbeat_us"
                        + " > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT) - "
                        + LEASE.toNanos() / 1000,
                String.class);
    }

    private Process start(TestDatabase pg, String name) throws Exception {
        return jvms.start(
                "takeover-" + name,
                "256m",
                CrashProbeApplication.class,
                List.of(
                        "--spring.profiles.active=no-demo-tasks",
                        "--spring.datasource.url=" + pg.url(),
                        "--spring.datasource.username=" + pg.user(),
                        "--spring.datasource.password=" + pg.password(),
                        "--spring.datasource.hikari.maximum-pool-size=4",
                        "--ax.jdbc.table-prefix=" + PREFIX,
                        "--ax.node-id=" + name,
                        "--ax.cluster.heartbeat=" + HEARTBEAT.toMillis() + "ms",
                        "--ax.cluster.lease=" + LEASE.toMillis() + "ms",
                        "--ax.cluster.ack-timeout=1s",
                        "--ax.cluster.poll-interval=100ms",
                        "--server.port=0"));
    }
}
