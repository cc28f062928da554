package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.TaskDataStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application whose Quartz jobs lived in a JDBC job store turns the adoption on: the adopted jobs and triggers
 * leave Quartz's store before its scheduler starts (else it would fire them from there, beans or not), and the data
 * map Quartz kept for a job with {@code PersistJobDataAfterExecution} is where AX's runs go on from.
 */
class QuartzJobStoreTakeoverTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    /** The count each run read, and the id of its fire. */
    record Run(int count, String fireInstanceId) {}

    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    @PersistJobDataAfterExecution
    @DisallowConcurrentExecution
    static final class CountingJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            int count = context.getJobDetail().getJobDataMap().getInt("count");
            context.getJobDetail().getJobDataMap().put("count", count + 1);
            RUNS.add(new Run(count, context.getFireInstanceId()));
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
        Trigger everySecond(JobDetail counter) {
            return TriggerBuilder.newTrigger()
                    .forJob(counter)
                    .withIdentity("every-second")
                    .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?"))
                    .build();
        }
    }

    private final String database = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    private ApplicationContextRunner application() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class,
                        AxJdbcAutoConfiguration.class,
                        AxAutoConfiguration.class,
                        QuartzAutoConfiguration.class,
                        QuartzAdoptionAutoConfiguration.class))
                .withUserConfiguration(Jobs.class)
                .withPropertyValues(
                        "spring.datasource.url=" + database,
                        "spring.datasource.username=sa",
                        "spring.quartz.job-store-type=jdbc",
                        "spring.quartz.jdbc.initialize-schema=always",
                        "spring.quartz.wait-for-jobs-to-complete-on-shutdown=true");
    }

    @Test
    void theAdoptedJobsLeaveQuartzsJobStoreAndTheirCountGoesOnFromWhatQuartzKept() {
        RUNS.clear();
        application().run(quartzAlone -> {
            assertThat(quartzAlone).hasNotFailed();
            await().atMost(BOUND).until(() -> RUNS.size() >= 2);
        });
        int byQuartz = RUNS.size();

        application().withPropertyValues("ax.adopt.quartz=true").run(adopted -> {
            assertThat(adopted).hasNotFailed();
            Scheduler quartz = adopted.getBean(Scheduler.class);
            assertThat(quartz.checkExists(TriggerKey.triggerKey("every-second")))
                    .isFalse();
            assertThat(quartz.checkExists(JobKey.jobKey("counter"))).isFalse();
            AxEngine engine = adopted.getBean(AxEngine.class);
            await().atMost(BOUND).until(() -> RUNS.size() >= byQuartz + 2);
            List<Run> byAx = new ArrayList<>(RUNS).subList(byQuartz, RUNS.size());
            assertThat(byAx)
                    .as("every run after the adoption is an AX instance")
                    .allSatisfy(r ->
                            assertThat(engine.store().find(r.fireInstanceId())).isPresent());
            TaskDataStore.TaskData kept = engine.store()
                    .taskData()
                    .orElseThrow()
                    .read("quartz:DEFAULT.counter")
                    .orElseThrow();
            assertThat(kept.version())
                    .as("Quartz's map, then one write per AX run")
                    .isGreaterThan(1);
        });

        List<Integer> counts = RUNS.stream().map(Run::count).toList();
        assertThat(counts)
                .as("each run read what the run before it wrote, Quartz's or AX's")
                .isSorted();
        assertThat(counts).doesNotHaveDuplicates();
        assertThat(counts).first().isEqualTo(0);
        assertThat(counts).last().isEqualTo(counts.size() - 1);
    }
}
