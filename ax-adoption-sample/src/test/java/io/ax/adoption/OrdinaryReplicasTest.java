package io.ax.adoption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.adoption.Runs.Run;
import io.ax.adoption.Runs.Verdict;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.jvm.ChildJvms;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The ordinary application, unchanged, on three replicas of one PostgreSQL database with {@code
 * ax.adopt.scheduled=all} and {@code ax.adopt.quartz=true}; halfway one replica is killed with SIGKILL and another
 * started. Judged from the jobs' own records: every fire of every job ran once (none twice, none missed), no job
 * overlapped itself, the Quartz counter kept in the job's data went on without a gap or a repeat across replicas.
 * The run lasts {@code -Dax.adoption.seconds} (default 40).
 */
class OrdinaryReplicasTest {

    private static final String PREFIX = "axadopt_";
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("ax.adoption.seconds", 40));
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final Duration HEARTBEAT = Duration.ofMillis(300);
    private static final Duration LEASE = Duration.ofMillis(1_500);
    /** How late a fire taken over from the killed node may start: lease, heartbeat, and a loaded 2-core machine. */
    private static final Duration FAILOVER = Duration.ofSeconds(6);
    /** The replica killed halfway. */
    private static final String KILLED = "r2";

    private final ChildJvms jvms = new ChildJvms();
    private final Map<String, Process> nodes = new LinkedHashMap<>();
    private JdbcTemplate db;

    @AfterEach
    void stopAll() {
        jvms.close();
    }

    @Test
    void everyFireRunsOnceAcrossThreeReplicasAndAKill() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        db = new JdbcTemplate(dataSource);
        db.execute("DROP TABLE IF EXISTS ordinary_runs");
        db.execute("DROP TABLE IF EXISTS shedlock");

        start(pg, "r1");
        await().atMost(BOUND).until(() -> live().contains("r1"));
        start(pg, "r2");
        start(pg, "r3");
        await().atMost(BOUND).until(() -> live().size() == 3);
        // every job has run once on the cluster of three
        await().atMost(BOUND).until(() -> jobsThatRan() == 16);

        Instant from = Instant.now().plusSeconds(2);
        Instant kill = from.plus(RUN.dividedBy(2));
        awaitInstant(kill);
        ChildJvms.kill(nodes.get(KILLED));
        start(pg, "r4");
        Instant to = from.plus(RUN);
        awaitInstant(to.plusSeconds(4)); // the runs of the window's last fires end
        List<String> adopted = adoptedTasks();
        jvms.close(); // every node gone before the records are read

        List<Verdict> verdicts = judge(from, to, kill);
        verdicts.forEach(v -> System.out.println("[adoption] " + v));
        assertThat(verdicts)
                .allSatisfy(v -> assertThat(v.clean()).as(v.toString()).isTrue());
        assertThat(verdicts)
                .filteredOn(v -> v.fires() > 0)
                .allSatisfy(v -> assertThat(v.runs()).as(v.job()).isEqualTo(v.fires()));

        List<Long> counters = runs("quartzCounter").counters();
        assertThat(counters).as("the Quartz counter, fire after fire").isNotEmpty();
        for (int i = 1; i < counters.size(); i++) {
            assertThat(counters.get(i))
                    .as("counter after " + counters.get(i - 1))
                    .isEqualTo(counters.get(i - 1) + 1);
        }
        Integer nodesThatRan = db.queryForObject(
                "SELECT COUNT(DISTINCT node) FROM ordinary_runs WHERE job = 'quartzCounter'", Integer.class);
        assertThat(nodesThatRan).as("the counter moved between replicas").isGreaterThan(1);
        assertThat(adopted).as("AX's tasks").hasSize(16);
    }

    private List<Verdict> judge(Instant from, Instant to, Instant kill) {
        ZoneId local = ZoneId.systemDefault();
        List<Verdict> verdicts = new ArrayList<>();
        verdicts.add(runs("salesSummary").cron("*/5 * * * * *", local, from, to, kill, FAILOVER));
        verdicts.add(runs("stockLevels").cron("0/3 * * * * MON-SUN", local, from, to, kill, FAILOVER));
        verdicts.add(runs("berlinDigest").cron("2/4 * * * * *", ZoneId.of("Europe/Berlin"), from, to, kill, FAILOVER));
        verdicts.add(runs("auditTrail").cron("*/6 * * * * ?", local, from, to, kill, FAILOVER));
        verdicts.add(runs("invoices").cron("*/4 * * * * *", local, from, to, kill, FAILOVER));
        verdicts.add(runs("exports").cron("3/5 * * * * *", local, from, to, kill, FAILOVER));
        verdicts.add(runs("refreshRates").fixedRate(Duration.ofSeconds(2), from, to, kill, FAILOVER));
        verdicts.add(runs("pollInbox").fixedRate(Duration.ofSeconds(3), from, to, kill, FAILOVER));
        verdicts.add(runs("heartbeat").fixedRate(Duration.ofMillis(1500), from, to, kill, FAILOVER));
        verdicts.add(runs("reconcile").fixedRate(Duration.ofSeconds(3), from, to, kill, FAILOVER));
        verdicts.add(runs("compactCache").fixedDelay(Duration.ofSeconds(2), from, to, kill, FAILOVER));
        verdicts.add(runs("syncPartners").fixedDelay(Duration.ofMillis(2500), from, to, kill, FAILOVER));
        verdicts.add(runs("payouts").fixedDelay(Duration.ofSeconds(2), from, to, kill, FAILOVER));
        verdicts.add(runs("quartzCounter").quartz(Duration.ofSeconds(2), from, to));
        verdicts.add(runs("quartzCleanup").quartz(Duration.ofSeconds(5), from, to));
        // every second, 1.5 s of work, never overlapping: a fire that finds the run going on is passed over
        verdicts.add(runs("quartzSlow").spaced(Duration.ZERO, Duration.ofMillis(1100), from, to, kill, FAILOVER));
        return verdicts;
    }

    private Runs runs(String job) {
        List<Run> runs = db.query(
                "SELECT started_at, ended_at, node, fire_time, counter FROM ordinary_runs WHERE job = ?",
                (rs, i) -> new Run(
                        Instant.ofEpochMilli(rs.getLong("started_at")),
                        rs.getObject("ended_at") == null ? null : Instant.ofEpochMilli(rs.getLong("ended_at")),
                        rs.getString("node"),
                        rs.getObject("fire_time") == null ? null : Instant.ofEpochMilli(rs.getLong("fire_time")),
                        rs.getObject("counter") == null ? null : rs.getLong("counter")),
                job);
        return new Runs(job, runs, KILLED);
    }

    private int jobsThatRan() {
        try {
            Integer n = db.queryForObject(
                    "SELECT COUNT(DISTINCT job) FROM ordinary_runs WHERE ended_at IS NOT NULL", Integer.class);
            return n == null ? 0 : n;
        } catch (org.springframework.jdbc.BadSqlGrammarException notYetCreated) {
            return 0;
        }
    }

    /** The tasks AX knows, as its store records their fires. */
    private List<String> adoptedTasks() {
        return db.queryForList("SELECT DISTINCT task_name FROM " + PREFIX + "instance", String.class);
    }

    /** Nodes whose heartbeat is younger than the lease, on the database's clock. */
    private List<String> live() {
        Boolean exists = db.queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class, PREFIX + "node");
        if (!Boolean.TRUE.equals(exists)) {
            return List.of();
        }
        return db.queryForList(
                "SELECT node_id FROM " + PREFIX + "node WHERE heartbeat_us"
                        + " > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT) - "
                        + LEASE.toNanos() / 1000,
                String.class);
    }

    private static void awaitInstant(Instant instant) {
        Duration left = Duration.between(Instant.now(), instant);
        if (!left.isNegative()) {
            await().pollInterval(Duration.ofMillis(200))
                    .atMost(left.plusSeconds(5))
                    .until(() -> !Instant.now().isBefore(instant));
        }
    }

    private void start(TestDatabase pg, String name) throws Exception {
        nodes.put(
                name,
                jvms.start(
                        "ordinary-" + name,
                        "256m",
                        OrdinaryApplication.class,
                        List.of(
                                "--spring.datasource.url=" + pg.url(),
                                "--spring.datasource.username=" + pg.user(),
                                "--spring.datasource.password=" + pg.password(),
                                "--ax.jdbc.table-prefix=" + PREFIX,
                                "--ax.node-id=" + name,
                                "--ordinary.node=" + name,
                                "--ax.adopt.scheduled=all",
                                "--ax.adopt.quartz=true",
                                "--ax.cluster.heartbeat=" + HEARTBEAT.toMillis() + "ms",
                                "--ax.cluster.lease=" + LEASE.toMillis() + "ms",
                                "--ax.cluster.ack-timeout=1s",
                                "--ax.cluster.poll-interval=100ms",
                                "--server.port=0")));
    }
}
