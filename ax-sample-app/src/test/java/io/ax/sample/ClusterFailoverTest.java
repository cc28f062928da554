package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import io.ax.test.net.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Replicas of the sample application, each a JVM of its own, on one PostgreSQL database: the leader killed with
 * SIGKILL (twice), a leader frozen with SIGSTOP past its lease and thawed, a leader cut off from the database by a
 * TCP proxy and healed. Afterwards, from the database only: one instance per fire time, every audit trail a legal
 * path with no second start unless the first was ended or taken over, nothing left unfinished, and every failover
 * within lease + heartbeat.
 */
class ClusterFailoverTest {

    private static final String PREFIX = "axfail_";
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final Duration HEARTBEAT = Duration.ofMillis(300);
    private static final Duration LEASE = Duration.ofMillis(1_500);
    /** What the bound allows beyond lease + heartbeat: this test's polling and a JVM on a loaded 2-core machine. */
    private static final Duration SLACK = Duration.ofMillis(700);

    private final ChildJvms jvms = new ChildJvms();
    private final Map<String, Process> nodes = new LinkedHashMap<>();
    private FaultProxy proxy;
    private JdbcTemplate db;

    @AfterEach
    void stopAll() {
        jvms.close();
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void killedFrozenAndCutLeadersHandOverAndNothingRunsTwiceOrIsLost() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        db = new JdbcTemplate(dataSource);
        proxy = FaultProxy.start("127.0.0.1", 5432);

        // c1 starts first, through the proxy, so that it leads: the partition later cuts the leader off
        start(pg, "c1", true);
        await().atMost(BOUND).until(() -> "c1".equals(holder()));
        start(pg, "c2", false);
        start(pg, "c3", false);
        awaitLiveNodes(3);
        await().atMost(BOUND).until(() -> count("state = 'SUCCESS'") >= 20);

        List<Duration> failovers = new ArrayList<>();

        // a partition: the leader's database traffic stops passing; it must stop deciding, the others take over
        long epoch = epoch();
        long cutAt = System.nanoTime();
        proxy.blackhole();
        failovers.add(awaitNewLeader("c1", epoch, cutAt));
        proxy.pass();
        // it rejoins as a follower
        await().atMost(BOUND).until(() -> live().contains("c1"));
        assertThat(holder()).isNotEqualTo("c1");
        awaitLiveNodes(3);

        // SIGKILL the leader, twice, with a new node started in between
        for (String fresh : List.of("c4", "c5")) {
            String leader = holder();
            long before = epoch();
            long killedAt = System.nanoTime();
            ChildJvms.kill(nodes.remove(leader));
            failovers.add(awaitNewLeader(leader, before, killedAt));
            start(pg, fresh, false);
            awaitLiveNodes(3); // a failover is measured with standbys that are up
        }

        // SIGSTOP the leader past its lease, then let it go on: it must step down, not decide
        String frozen = holder();
        long before = epoch();
        long frozenAt = System.nanoTime();
        ChildJvms.freeze(nodes.get(frozen));
        failovers.add(awaitNewLeader(frozen, before, frozenAt));
        ChildJvms.thaw(nodes.get(frozen));
        await().atMost(BOUND).until(() -> live().contains(frozen));
        assertThat(holder()).as("the thawed node follows").isNotEqualTo(frozen);

        // every instance due so far ends, on the nodes still alive
        long mark = db.queryForObject("SELECT COALESCE(MAX(scheduled_us), 0) FROM " + PREFIX + "instance", Long.class);
        try {
            await().atMost(BOUND)
                    .until(() -> count("scheduled_us <= " + mark
                                    + " AND state NOT IN ('SUCCESS','DEAD','CANCELLED','SKIPPED')")
                            == 0);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "instances due that never ended:" + AuditTrails.describeUnfinished(db, PREFIX, mark), e);
        }
        jvms.close();

        System.out.println("Failover times (ms): "
                + failovers.stream().map(Duration::toMillis).toList());
        for (Duration failover : failovers) {
            assertThat(failover).isLessThan(LEASE.plus(HEARTBEAT).plus(SLACK));
        }
        AuditTrails.assertOneInstancePerFireTime(db, PREFIX);
        AuditTrails.assertEveryTrailIsALegalPath(db, PREFIX);
        assertThat(db.queryForList(
                        "SELECT DISTINCT node FROM " + PREFIX + "audit WHERE to_state = 'RUNNING'", String.class))
                .as("nodes that ran work")
                .hasSizeGreaterThanOrEqualTo(3);
    }

    /** Waits for a leader other than {@code old}, at a higher epoch; returns the time since {@code sinceNanos}. */
    private Duration awaitNewLeader(String old, long oldEpoch, long sinceNanos) {
        await().atMost(BOUND).pollInterval(Duration.ofMillis(20)).until(() -> {
            String h = holder();
            return h != null && !h.equals(old) && epoch() > oldEpoch;
        });
        return Duration.ofNanos(System.nanoTime() - sinceNanos);
    }

    /** The node holding an unexpired lease, on the database's clock; null when none does. */
    private String holder() {
        if (!tablesExist()) {
            return null;
        }
        return db
                .queryForList(
                        "SELECT holder FROM " + PREFIX + "leader WHERE name = 'leader'"
                                + " AND expires_us > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)",
                        String.class)
                .stream()
                .findFirst()
                .orElse(null);
    }

    private long epoch() {
        return db.queryForObject("SELECT epoch FROM " + PREFIX + "leader WHERE name = 'leader'", Long.class);
    }

    /** Nodes whose heartbeat is younger than the lease, on the database's clock. */
    private List<String> live() {
        if (!tablesExist()) {
            return List.of();
        }
        return db.queryForList(
                "SELECT node_id FROM " + PREFIX + "node WHERE heartbeat_us"
                        + " > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT) - "
                        + LEASE.toNanos() / 1000,
                String.class);
    }

    /** Whether the first node has created the tables yet. */
    private boolean tablesExist() {
        return Boolean.TRUE.equals(
                db.queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class, PREFIX + "node"));
    }

    private void awaitLiveNodes(int n) {
        await().atMost(BOUND).until(() -> live().size() == n);
    }

    private int count(String condition) {
        return ChildJvms.count(db, PREFIX, condition);
    }

    private void start(TestDatabase pg, String name, boolean throughProxy) throws Exception {
        String url = throughProxy
                // a short socket timeout: a statement stuck behind the partition fails instead of hanging
                ? "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + pg.databaseName()
                        + "?socketTimeout=2&connectTimeout=2"
                : pg.url();
        nodes.put(
                name,
                jvms.start(
                        "failover-" + name,
                        "256m",
                        SampleApplication.class,
                        List.of(
                                "--spring.profiles.active=postgres,no-demo-tasks",
                                "--spring.datasource.url=" + url,
                                "--spring.datasource.username=" + pg.user(),
                                "--spring.datasource.password=" + pg.password(),
                                "--spring.datasource.hikari.connection-timeout=1000",
                                "--ax.jdbc.network-timeout=2s",
                                "--ax.jdbc.table-prefix=" + PREFIX,
                                "--ax.node-id=" + name,
                                "--ax.cluster.heartbeat=" + HEARTBEAT.toMillis() + "ms",
                                "--ax.cluster.lease=" + LEASE.toMillis() + "ms",
                                "--ax.cluster.ack-timeout=1s",
                                "--ax.cluster.poll-interval=100ms",
                                "--server.port=0",
                                "--sample.tick.rate=100ms",
                                "--sample.flaky.delay=300ms",
                                "--sample.doomed.delay=500ms",
                                "--sample.slow.delay=200ms",
                                "--sample.retry.base=200ms",
                                "--ax.misfire.threshold=1s")));
    }
}
