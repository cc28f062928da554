package io.ax.adoption;

import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** Quartz jobs as Spring Boot's Quartz starter schedules them: job details and triggers as beans. */
@Configuration(proxyBeanMethods = false)
public class QuartzJobs {

    // tag::quartz-before[]
    /** Counts its fires in its job data, which Quartz keeps from one fire to the next. */
    @PersistJobDataAfterExecution
    @DisallowConcurrentExecution
    public static class CounterJob extends QuartzJobBean {

        private final RunLog log;

        public CounterJob(RunLog log) {
            this.log = log;
        }

        @Override
        protected void executeInternal(JobExecutionContext context) {
            JobDataMap data = context.getJobDetail().getJobDataMap();
            long count = data.getLong("count") + 1;
            log.run("quartzCounter", context.getScheduledFireTime().toInstant(), count, () -> RunLog.work(50));
            data.put("count", count);
        }
    }
    // end::quartz-before[]

    /** Takes longer than its interval: must never overlap itself, on any replica. */
    @DisallowConcurrentExecution
    public static class SlowExclusiveJob extends QuartzJobBean {

        private final RunLog log;

        public SlowExclusiveJob(RunLog log) {
            this.log = log;
        }

        @Override
        protected void executeInternal(JobExecutionContext context) {
            log.run("quartzSlow", context.getScheduledFireTime().toInstant(), null, () -> RunLog.work(1500));
        }
    }

    /** Gets its settings from its job data, applied to its properties by Spring's job factory. */
    public static class CleanupJob extends QuartzJobBean {

        private final RunLog log;
        private String retention;

        public CleanupJob(RunLog log) {
            this.log = log;
        }

        public void setRetention(String retention) {
            this.retention = retention;
        }

        @Override
        protected void executeInternal(JobExecutionContext context) {
            if (!"P7D".equals(retention)) {
                throw new IllegalStateException("the job data did not reach the job: retention = " + retention);
            }
            log.run("quartzCleanup", context.getScheduledFireTime().toInstant(), null, () -> RunLog.work(30));
        }
    }

    // tag::quartz-beans[]
    @Bean
    JobDetail counterJob() {
        return JobBuilder.newJob(CounterJob.class)
                .withIdentity("counter")
                .usingJobData("count", 0L)
                .storeDurably()
                .build();
    }

    @Bean
    Trigger counterTrigger(JobDetail counterJob) {
        return TriggerBuilder.newTrigger()
                .forJob(counterJob)
                .withIdentity("counter-every-2s")
                .withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?"))
                .build();
    }
    // end::quartz-beans[]

    @Bean
    JobDetail slowJob() {
        return JobBuilder.newJob(SlowExclusiveJob.class)
                .withIdentity("slow")
                .storeDurably()
                .build();
    }

    @Bean
    Trigger slowTrigger(JobDetail slowJob) {
        return TriggerBuilder.newTrigger()
                .forJob(slowJob)
                .withIdentity("slow-every-1s")
                .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1))
                .build();
    }

    @Bean
    JobDetail cleanupJob() {
        return JobBuilder.newJob(CleanupJob.class)
                .withIdentity("cleanup")
                .usingJobData("retention", "P7D")
                .storeDurably()
                .build();
    }

    @Bean
    Trigger cleanupTrigger(JobDetail cleanupJob) {
        return TriggerBuilder.newTrigger()
                .forJob(cleanupJob)
                .withIdentity("cleanup-every-5s")
                .withSchedule(CronScheduleBuilder.cronSchedule("1/5 * * * * ?"))
                .build();
    }
}
