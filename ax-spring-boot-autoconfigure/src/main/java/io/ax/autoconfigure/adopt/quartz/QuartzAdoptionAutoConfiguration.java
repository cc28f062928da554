package io.ax.autoconfigure.adopt.quartz;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxScheduler;
import io.ax.core.RetryPolicy;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.InstanceStore;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.quartz.Calendar;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;

/**
 * Runs the application's Quartz jobs on AX when {@code ax.adopt.quartz=true}: the {@code JobDetail}, {@code Trigger}
 * and {@code Calendar} beans that Spring Boot's Quartz auto-configuration would schedule become AX tasks, fired once
 * per fire time across the cluster, and Quartz's scheduler no longer fires them. Without the setting, or without
 * Quartz and Spring Boot's Quartz module on the class path, nothing changes.
 */
@AutoConfiguration(
        after = AxAutoConfiguration.class,
        beforeName = "org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration")
@ConditionalOnClass({
    Scheduler.class,
    SchedulerFactoryBean.class,
    org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer.class
})
@ConditionalOnBooleanProperty("ax.adopt.quartz")
@ConditionalOnBean(AxEngine.class)
public final class QuartzAdoptionAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public QuartzAdoptionAutoConfiguration() {}

    @Bean
    static QuartzSchedulingCleared axQuartzSchedulingCleared() {
        return new QuartzSchedulingCleared();
    }

    @Bean
    QuartzJobExecutor axQuartzJobExecutor(
            ApplicationContext context,
            InstanceStore store,
            AxClock clock,
            ObjectProvider<Scheduler> scheduler,
            ObjectProvider<AxScheduler> axScheduler,
            AdoptedTasks adopted) {
        // each run's job is made as Spring Boot's scheduler factory makes it: a bean of the application
        SpringBeanJobFactory jobFactory = new SpringBeanJobFactory();
        jobFactory.setApplicationContext(context);
        return new QuartzJobExecutor(
                store,
                clock,
                jobFactory,
                scheduler::getIfUnique,
                task -> axScheduler.getObject().pause(task),
                adopted);
    }

    @Bean
    QuartzStoreImport axQuartzStoreImport(
            AxProperties properties,
            RetryPolicy retry,
            AxClock clock,
            QuartzJobExecutor axQuartzJobExecutor,
            AxScheduler axScheduler,
            Environment environment) {
        Duration threshold = properties.getMisfire().getThreshold();
        return new QuartzStoreImport(
                new QuartzTaskMapping(properties.getAdopt().getTimeout(), retry, takeovers(environment), threshold),
                axQuartzJobExecutor,
                axScheduler,
                clock,
                threshold);
    }

    @Bean
    QuartzImportOperation axQuartzImportOperation(
            QuartzStoreImport axQuartzStoreImport, ObjectProvider<DataSource> dataSource, Environment environment) {
        return new ApplicationQuartzImport(axQuartzStoreImport, dataSource::getIfUnique, environment);
    }

    @Bean
    ApplicationRunner axQuartzImportAtStart(AxProperties properties, QuartzImportOperation axQuartzImportOperation) {
        AxProperties.QuartzImportAtStart mode = properties.getAdopt().getQuartzImport();
        return args -> {
            if (mode != AxProperties.QuartzImportAtStart.OFF) {
                axQuartzImportOperation.run(null, null, mode == AxProperties.QuartzImportAtStart.APPLY);
            }
        };
    }

    @Bean
    QuartzAdoption axQuartzAdoption(
            ListableBeanFactory beans,
            Environment environment,
            AxProperties properties,
            RetryPolicy retry,
            AxClock clock,
            QuartzJobExecutor axQuartzJobExecutor,
            QuartzSchedulingCleared axQuartzSchedulingCleared,
            ObjectProvider<Scheduler> scheduler) {
        QuartzTaskMapping mapping = new QuartzTaskMapping(
                properties.getAdopt().getTimeout(),
                retry,
                takeovers(environment),
                properties.getMisfire().getThreshold());
        // read as Spring Boot's Quartz properties bind them
        Binder binder = Binder.get(environment);
        QuartzAdoption.Settings settings = new QuartzAdoption.Settings(
                binder.bind("spring.quartz.auto-startup", Boolean.class).orElse(true),
                binder.bind("spring.quartz.startup-delay", Duration.class).orElse(Duration.ZERO),
                binder.bind("spring.quartz.overwrite-existing-jobs", Boolean.class)
                        .orElse(false));
        return new QuartzAdoption(
                () -> new QuartzAdoption.Beans(
                        List.copyOf(beans.getBeansOfType(JobDetail.class).values()),
                        List.copyOf(beans.getBeansOfType(Trigger.class).values()),
                        beans.getBeansOfType(Calendar.class)),
                settings,
                mapping,
                axQuartzJobExecutor,
                axQuartzSchedulingCleared,
                scheduler::getIfUnique,
                clock);
    }

    /** {@code ax.retry.takeovers}, as the engine reads it. */
    private static int takeovers(Environment environment) {
        return Binder.get(environment)
                .bind("ax.retry.takeovers", Integer.class)
                .orElse(io.ax.core.engine.work.Takeovers.DEFAULT_BOUND);
    }
}
