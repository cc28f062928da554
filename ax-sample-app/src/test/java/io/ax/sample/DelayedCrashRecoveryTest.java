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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Schedules delayed tasks due over a span of time, SIGKILLs the node that runs them halfway, cancels some from
 * another process meanwhile, starts a new node and proves from PostgreSQL that every task that was not cancelled ran
 * at least once and none before its time, and that no cancelled task ran. Sized by {@code -Dax.crash.tasks}
 * (default 30,000, as CI runs it; the full run takes 100,000) and {@code -Dax.crash.span} (default 24 s; 60 s).
 */
class DelayedCrashRecoveryTest {

    private static final String PREFIX = "axdcrash_";
    private static final int TASKS = Integer.getInteger("ax.crash.tasks", 30_000);
    private static final Duration SPAN = Duration.ofSeconds(Long.getLong("ax.crash.span", 24));
    private static final Duration LEAD = Duration.ofSeconds(10);
    private static final Duration BOUND = SPAN.plus(Duration.ofSeconds(120));

    private final ChildJvms nodes = new ChildJvms();

    @AfterEach
    void killLeftovers() {
        nodes.close();
    }

    @Test
    void everyDelayedTaskRunsOnceItsTimeHasComeAcrossAKill() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        JdbcTemplate db = new JdbcTemplate(dataSource);
        db.execute("DROP TABLE IF EXISTS " + CrashProbeApplication.Probe.RUNS);
        db.execute("CREATE TABLE " + CrashProbeApplication.Probe.RUNS
                + " (instance_id VARCHAR(36) NOT NULL, attempt INT NOT NULL, started_us BIGINT NOT NULL)");
        JdbcSchema.migrate(dataSource, PREFIX);

        // this JVM only writes: its engine is never started, so it runs nothing
        AxEngine client = AxEngine.builder()
                .store(new JdbcInstanceStore(dataSource, PREFIX))
                .router(new ExecutorRouter(List.of(new LocalMethodExecutor())))
                .nodeId("crash-client")
                .build();
        client.register(AxTask.builder("crashProbe").build());
        Instant first = Instant.now().plus(LEAD);
        List<ScheduleRequest> requests = new ArrayList<>(TASKS);
        for (int i = 0; i < TASKS; i++) {
            requests.add(ScheduleRequest.of("crashProbe")
                    .at(first.plusNanos(SPAN.toNanos() / TASKS * i))
                    .payload("task-" + i));
        }
        List<String> ids = client.scheduleAll(requests);

        Process node = start(pg, "first");
        Instant halfway = first.plus(SPAN.dividedBy(2));
        await().atMost(BOUND).until(() -> Instant.now().isAfter(halfway));
        Set<String> cancelled = new HashSet<>();
        for (int i = 0; i < TASKS; i += 10) { // from another process, while the node runs: the state machine decides
            if (client.cancel(ids.get(i))) {
                cancelled.add(ids.get(i));
            }
        }
        ChildJvms.kill(node);
        int doneAtKill = count(db, "state = 'SUCCESS'");
        // unfinished in any state: on a slow machine the cancels above may outlast the span, and then what is left
        // was due already (acknowledged in the node's queue, say) rather than still waiting for its time
        int leftAtKill = count(db, "state NOT IN ('SUCCESS', 'CANCELLED', 'DEAD', 'SKIPPED')");
        assertThat(doneAtKill).as("work done before the kill").isPositive();
        assertThat(leftAtKill).as("work left at the kill").isPositive();
        assertThat(cancelled).as("cancels that came in time").isNotEmpty();

        Process again = start(pg, "second");
        await().atMost(BOUND)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> count(db, "state IN ('SUCCESS'," + " 'CANCELLED')") == TASKS);
        ChildJvms.kill(again);

        Map<String, Long> scheduled = new HashMap<>();
        Map<String, String> states = new HashMap<>();
        db.query("SELECT id, scheduled_us, state FROM " + PREFIX + "instance", rs -> {
            scheduled.put(rs.getString(1), rs.getLong(2));
            states.put(rs.getString(1), rs.getString(3));
        });
        Map<String, Integer> runs = new HashMap<>();
        List<String> early = new ArrayList<>();
        db.query("SELECT instance_id, started_us FROM " + CrashProbeApplication.Probe.RUNS, rs -> {
            String id = rs.getString(1);
            runs.merge(id, 1, Integer::sum);
            if (rs.getLong(2) < scheduled.get(id)) {
                early.add(id);
            }
        });
        assertThat(early).as("executions that started before their time").isEmpty();
        for (String id : ids) {
            if (cancelled.contains(id)) {
                assertThat(states.get(id)).as(id).isEqualTo("CANCELLED");
                assertThat(runs).as("cancelled %s ran", id).doesNotContainKey(id);
            } else {
                assertThat(states.get(id)).as(id).isEqualTo("SUCCESS");
                assertThat(runs.getOrDefault(id, 0)).as("runs of %s", id).isGreaterThanOrEqualTo(1);
            }
        }
        assertThat(states).hasSize(TASKS);
        System.out.printf(
                "delayed crash: %d tasks over %s; at the kill %d done, %d unfinished; %d cancelled in time;"
                        + " %d ran more than once%n",
                TASKS,
                SPAN,
                doneAtKill,
                leftAtKill,
                cancelled.size(),
                runs.values().stream().filter(n -> n > 1).count());
    }

    private Process start(TestDatabase pg, String name) throws Exception {
        return nodes.start(
                "delayed-crash-" + name,
                "512m",
                CrashProbeApplication.class,
                List.of(
                        "--spring.profiles.active=no-demo-tasks",
                        "--spring.datasource.url=" + pg.url(),
                        "--spring.datasource.username=" + pg.user(),
                        "--spring.datasource.password=" + pg.password(),
                        "--spring.datasource.hikari.maximum-pool-size=12",
                        "--ax.jdbc.table-prefix=" + PREFIX,
                        "--ax.node-id=dcrash-" + name,
                        "--ax.pools.default.threads=8",
                        "--ax.pools.default.queue-capacity=10000",
                        "--server.port=0",
                        "--logging.level.io.ax.instances=WARN"));
    }

    private static int count(JdbcTemplate db, String condition) {
        return ChildJvms.count(db, PREFIX, condition);
    }
}
