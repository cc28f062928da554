package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.TaskDataStore;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Two engines, two application contexts in one JVM, on one PostgreSQL database: a Quartz job with {@code
 * PersistJobDataAfterExecution} and {@code DisallowConcurrentExecution}, fired by four triggers, runs on both nodes,
 * never two runs at once, and each run reads the count the run before it wrote, also after one of the nodes stops.
 */
class QuartzAdoptionClusterTest {

    private static final String PREFIX = "axqz_";
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** The runs of both nodes: the count each read, and the node that ran it. */
    record Run(int count, String node) {}

    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();
    static final AtomicInteger RUNNING = new AtomicInteger();
    static final AtomicInteger MOST_AT_ONCE = new AtomicInteger();

    /** Counts its runs in its data map; each run holds on a little, so that runs would overlap if they could. */
    @PersistJobDataAfterExecution
    @DisallowConcurrentExecution
    static final class CountingJob implements Job {
        @Autowired
        AxEngine engine;

        @Override
        public void execute(JobExecutionContext context) {
            int now = RUNNING.incrementAndGet();
            MOST_AT_ONCE.accumulateAndGet(now, Math::max);
            try {
                int count = context.getJobDetail().getJobDataMap().getInt("count");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(60)); // the job's work
                context.getJobDetail().getJobDataMap().put("count", count + 1);
                RUNS.add(new Run(count, engine.nodeId()));
            } finally {
                RUNNING.decrementAndGet();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @Bean
        JobDetail counter() {
            return JobBuilder.newJob(CountingJob.class)
                    .withIdentity("counter")
                    .usingJobData("count", 0)
                    .storeDurably()
                    .build();
        }

        @Bean
        Trigger first(JobDetail counter) {
            return every(counter, "first");
        }

        @Bean
        Trigger second(JobDetail counter) {
            return every(counter, "second");
        }

        @Bean
        Trigger third(JobDetail counter) {
            return every(counter, "third");
        }

        @Bean
        Trigger fourth(JobDetail counter) {
            return every(counter, "fourth");
        }

        private static Trigger every(JobDetail job, String name) {
            return TriggerBuilder.newTrigger()
                    .forJob(job)
                    .withIdentity(name)
                    .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                            .withIntervalInMilliseconds(250)
                            .repeatForever())
                    .build();
        }
    }

    private ApplicationContextRunner node(String id) {
        TestDatabase db = TestDatabase.POSTGRESQL;
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class,
                        AxAutoConfiguration.class,
                        QuartzAutoConfiguration.class,
                        QuartzAdoptionAutoConfiguration.class))
                .withUserConfiguration(Jobs.class)
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
        RUNNING.set(0);
        MOST_AT_ONCE.set(0);
    }

    private static long runsOn(String node) {
        return RUNS.stream().filter(r -> r.node().equals(node)).count();
    }

    @Test
    void theJobsCountIsContinuousAcrossTwoNodesAndItsRunsNeverOverlap() {
        node("quartz-a").run(a -> {
            assertThat(a).hasNotFailed();
            node("quartz-b").run(b -> {
                assertThat(b).hasNotFailed();
                await().atMost(BOUND).until(() -> runsOn("quartz-a") >= 2 && runsOn("quartz-b") >= 2);
            });
            // b stopped: a takes its triggers over and goes on counting from what b wrote last
            int before = RUNS.size();
            await().atMost(BOUND).until(() -> RUNS.size() >= before + 4);
        });

        List<Integer> counts = new ArrayList<>(RUNS.stream().map(Run::count).toList());
        assertThat(MOST_AT_ONCE.get())
                .as("runs at once, on both nodes together")
                .isEqualTo(1);
        assertThat(counts).as("each run read what the run before it wrote").isSorted();
        assertThat(counts).doesNotHaveDuplicates();
        assertThat(counts).first().isEqualTo(0);
        assertThat(counts).last().isEqualTo(counts.size() - 1);
        TaskDataStore data = new io.ax.jdbc.JdbcInstanceStore(TestDatabase.POSTGRESQL.dataSource(), PREFIX)
                .taskData()
                .orElseThrow();
        TaskDataStore.TaskData stored = data.read("quartz:DEFAULT.counter").orElseThrow();
        assertThat(JobDataCodec.decode(stored.value())).containsEntry("count", counts.size());
        assertThat(stored.version()).isEqualTo(counts.size());
    }
}
