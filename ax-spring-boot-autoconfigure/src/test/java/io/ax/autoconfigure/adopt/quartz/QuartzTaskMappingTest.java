package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxTask;
import io.ax.core.MisfirePolicy;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskLimits;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

/** What each Quartz trigger, job and misfire instruction becomes in AX; read without any scheduler. */
class QuartzTaskMappingTest {

    private static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");

    private final QuartzTaskMapping mapping =
            new QuartzTaskMapping(Duration.ofMinutes(30), RetryPolicy.none(), 3, Duration.ofSeconds(5));

    static final class PlainJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {}
    }

    @DisallowConcurrentExecution
    @PersistJobDataAfterExecution
    static final class ExclusiveJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {}
    }

    private static JobDetail job(Class<? extends Job> type) {
        return JobBuilder.newJob(type)
                .withIdentity("report", "reports")
                .usingJobData("greeting", "hello")
                .usingJobData("limit", 10)
                .storeDurably()
                .build();
    }

    private static TriggerBuilder<Trigger> trigger(JobDetail job) {
        return TriggerBuilder.newTrigger()
                .forJob(job)
                .withIdentity("nightly", "reports")
                .startAt(Date.from(NOW.minusSeconds(1)));
    }

    private AxTask cron(int misfire) {
        JobDetail job = job(PlainJob.class);
        CronScheduleBuilder schedule = CronScheduleBuilder.cronSchedule("0 0 2 * * ?");
        Trigger t = trigger(job).withSchedule(schedule).build();
        ((org.quartz.impl.triggers.CronTriggerImpl) t).setMisfireInstruction(misfire);
        return mapping.map(job, t, null, 1, NOW).task();
    }

    private AxTask simple(int misfire, Instant start, Duration interval) {
        JobDetail job = job(PlainJob.class);
        Trigger t = trigger(job)
                .startAt(Date.from(start))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                        .withIntervalInMilliseconds(interval.toMillis())
                        .repeatForever())
                .build();
        ((org.quartz.impl.triggers.SimpleTriggerImpl) t).setMisfireInstruction(misfire);
        return mapping.map(job, t, null, 1, NOW).task();
    }

    @ParameterizedTest
    @CsvSource({"0, FIRE_ONCE", "1, FIRE_ONCE", "2, SKIP", "-1, FIRE_ALL"})
    void eachCronMisfireInstructionHasItsPolicy(int instruction, MisfirePolicy policy) {
        assertThat(cron(instruction).misfire()).isEqualTo(policy);
    }

    @ParameterizedTest
    @CsvSource({"0, SKIP", "4, SKIP", "5, SKIP", "-1, FIRE_ALL"})
    void eachRepeatingSimpleMisfireInstructionHasItsPolicy(int instruction, MisfirePolicy policy) {
        assertThat(simple(instruction, NOW, Duration.ofMinutes(1)).misfire()).isEqualTo(policy);
    }

    @Test
    void aCronTriggerKeepsItsExpressionAndTimeZone() {
        JobDetail job = job(PlainJob.class);
        Trigger t = trigger(job)
                .withSchedule(CronScheduleBuilder.cronSchedule("0 30 2 ? * MON-FRI")
                        .inTimeZone(TimeZone.getTimeZone("Asia/Tokyo")))
                .build();
        AxTask task = mapping.map(job, t, null, 1, NOW).task();
        assertThat(task.name()).isEqualTo("quartz:reports.nightly");
        assertThat(task.type()).isEqualTo(QuartzTaskMapping.TYPE);
        assertThat(task.trigger()).isEqualTo(CronTrigger.of("0 30 2 ? * MON-FRI", ZoneId.of("Asia/Tokyo")));
        assertThat(task.timeout()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void aSimpleTriggerFiresAtItsStartTimeOrAtOnceOrOnItsGridAfterAMisfire() {
        Duration minute = Duration.ofMinutes(1);
        assertThat(((IntervalTrigger) simple(0, NOW.plusSeconds(90), minute).trigger()).initialDelay())
                .as("starts later: at its start time")
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(((IntervalTrigger) simple(0, NOW.minusSeconds(2), minute).trigger()).initialDelay())
                .as("started a moment ago, inside the misfire threshold: at once")
                .isZero();
        assertThat(((IntervalTrigger)
                                simple(0, NOW.minus(Duration.ofMinutes(10)).minusSeconds(20), minute)
                                        .trigger())
                        .initialDelay())
                .as("started long ago: its next time on the grid of its interval")
                .isEqualTo(Duration.ofSeconds(40));
        assertThat(((IntervalTrigger) simple(0, NOW, minute).trigger()).period())
                .isEqualTo(minute);
    }

    @Test
    void disallowedConcurrencyIsANonOverlappingTaskAndAMutexOfTheJobAcrossItsTriggers() {
        JobDetail job = job(ExclusiveJob.class);
        Trigger t = trigger(job)
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"))
                .build();
        AdoptedJob alone = mapping.map(job, t, null, 1, NOW);
        assertThat(alone.task().concurrent()).isFalse();
        assertThat(alone.task().limits()).isEqualTo(TaskLimits.NONE);
        assertThat(alone.dataKey()).isEqualTo("quartz:reports.report");

        AdoptedJob oneOfTwo = mapping.map(job, t, null, 2, NOW);
        assertThat(oneOfTwo.task().limits().mutex()).isEqualTo("quartz:reports.report");

        AdoptedJob plain = mapping.map(job(PlainJob.class), t, null, 2, NOW);
        assertThat(plain.task().concurrent()).isTrue();
        assertThat(plain.task().limits()).isEqualTo(TaskLimits.NONE);
        assertThat(plain.dataKey()).isNull();
    }

    @Test
    void theTextEntriesOfTheMergedMapAreTheTasksParametersAndTheJobDetailOfAFactoryBeanIsLeftOut() {
        JobDetail job = job(PlainJob.class);
        Trigger t = trigger(job)
                .usingJobData("greeting", "hi")
                .usingJobData("region", "eu")
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"))
                .build();
        t.getJobDataMap().put(QuartzTaskMapping.JOB_DETAIL_KEY, job); // as Spring's CronTriggerFactoryBean does
        AdoptedJob adopted = mapping.map(job, t, null, 1, NOW);
        assertThat(adopted.task().params()).isEqualTo(Map.of("greeting", "hi", "region", "eu"));
        assertThat(adopted.trigger().getJobDataMap()).doesNotContainKey(QuartzTaskMapping.JOB_DETAIL_KEY);
        assertThat(t.getJobDataMap()).as("the bean is left as it is").containsKey(QuartzTaskMapping.JOB_DETAIL_KEY);
    }

    @Test
    void aCronTriggerThatStartsLaterIsRefused() {
        JobDetail job = job(PlainJob.class);
        Trigger t = trigger(job)
                .startAt(Date.from(NOW.plusSeconds(30)))
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 * * ?"))
                .build();
        assertThatThrownBy(() -> mapping.map(job, t, null, 1, NOW))
                .isInstanceOf(InvalidJobDefinitionException.class)
                .hasMessageContaining("attribute 'startTime': it starts firing at 2030-06-01T12:00:30Z");
    }

    @Test
    void aCronExpressionAxCannotReadIsRefusedWithTheParsersMessage() {
        JobDetail job = job(PlainJob.class);
        // valid for Quartz, never fires: February 30th
        Trigger t = trigger(job)
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0 2 30 2 ?"))
                .build();
        assertThatThrownBy(() -> mapping.map(job, t, null, 1, NOW))
                .isInstanceOf(InvalidJobDefinitionException.class)
                .hasMessageContaining("attribute 'cronExpression'");
    }
}
