package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.AxTask;
import io.ax.core.TaskDefinition;
import io.ax.core.engine.AxEngine;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A task imported from a Quartz job store runs on every node of the cluster, not only on the one that imported it: a
 * node that did not import it runs it once the importing node stopped, and the importing node runs it again after a
 * restart; each run's job sees the data map kept in Quartz's store.
 */
class QuartzImportedJobsClusterTest {

    private static final String PREFIX = "axqi_";
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** A run: the node that ran it, and the greeting its job found in its data map. */
    record Run(String node, String greeting) {}

    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    /** Records each run; made by Spring's job factory on the node that runs it. */
    public static final class GreetingJob implements Job {
        @Autowired
        AxEngine engine;

        @Override
        public void execute(JobExecutionContext context) {
            RUNS.add(new Run(engine.nodeId(), context.getMergedJobDataMap().getString("greeting")));
        }
    }

    private ApplicationContextRunner node(String id) {
        TestDatabase db = TestDatabase.POSTGRESQL;
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class,
                        AxAutoConfiguration.class,
                        QuartzAdoptionAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + db.url(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "ax.adopt.quartz=true",
                        "ax.node-id=" + id,
                        "ax.jdbc.table-prefix=" + PREFIX,
                        "ax.cluster.heartbeat=100ms",
                        "ax.cluster.lease=1s",
                        "ax.cluster.ack-timeout=300ms",
                        "ax.cluster.poll-interval=50ms");
    }

    @BeforeEach
    void emptyDatabase() {
        TestDatabase.POSTGRESQL.dataSource(); // skips (or fails) here when PostgreSQL does not answer
        TestDatabase.POSTGRESQL.migrate(PREFIX);
        RUNS.clear();
    }

    private static long runsOn(String node) {
        return RUNS.stream().filter(r -> r.node().equals(node)).count();
    }

    @Test
    void anImportedTaskRunsOnANodeThatDidNotImportItAndAfterARestart() throws Exception {
        try (QuartzStores store = new QuartzStores(TestDatabase.POSTGRESQL)) {
            Scheduler filler = store.scheduler("filler");
            try {
                filler.scheduleJob(
                        JobBuilder.newJob(GreetingJob.class)
                                .withIdentity("greeter")
                                .usingJobData("greeting", "hello")
                                .build(),
                        TriggerBuilder.newTrigger()
                                .withIdentity("every-second")
                                .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?"))
                                .build());
            } finally {
                filler.shutdown();
            }
            String task = "quartz:DEFAULT.every-second";

            node("quartz-b").run(b -> {
                assertThat(b).hasNotFailed();
                node("quartz-a").run(a -> {
                    assertThat(a).hasNotFailed();
                    QuartzImportReport report = a.getBean(QuartzStoreImport.class)
                            .run(
                                    store.dataSource,
                                    new QuartzStoreImport.Request(store.prefix, store.schedulerName, false, true));
                    assertThat(report.imported()).isEqualTo(1);
                    AxEngine engineB = b.getBean(AxEngine.class);
                    await().atMost(BOUND)
                            .untilAsserted(() -> assertThat(engineB.tasks())
                                    .extracting(AxTask::name)
                                    .contains(task));
                    // both nodes show it as adopted: the one that imported it, and the one that learned of it
                    String origin = "Quartz trigger DEFAULT.every-second of job DEFAULT.greeter (imported)";
                    assertThat(a.getBean(AdoptedTasks.class).origin(task)).contains(origin);
                    assertThat(b.getBean(AdoptedTasks.class).origin(task)).contains(origin);
                });
                // the importing node stopped: the node that only read the definition runs the task
                await().atMost(BOUND).until(() -> runsOn("quartz-b") >= 2);
            });
            long before = runsOn("quartz-a");
            node("quartz-a").run(a -> {
                assertThat(a).hasNotFailed();
                assertThat(a.getBean(AxEngine.class).list())
                        .extracting(TaskDefinition::name)
                        .containsExactly(task);
                // restarted, the importing node finds the job in AX's store, not in its memory
                await().atMost(BOUND).until(() -> runsOn("quartz-a") >= before + 2);
            });
            assertThat(RUNS).allSatisfy(r -> assertThat(r.greeting()).isEqualTo("hello"));
            assertThat(store.state("every-second")).isEqualTo(QuartzStoreReader.IMPORTED);
        }
    }
}
