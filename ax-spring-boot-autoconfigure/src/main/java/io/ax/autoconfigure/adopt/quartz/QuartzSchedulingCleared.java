package io.ax.autoconfigure.adopt.quartz;

import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.core.Ordered;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

/**
 * Keeps Spring Boot's Quartz scheduler from scheduling the jobs and triggers AX adopts: the auto-configuration hands
 * the application's job and trigger beans to the scheduler factory, then applies the customizers in order; this one
 * comes first and takes them away again. Customizers after it may still give the scheduler jobs of their own, which
 * Quartz runs (AX adopts beans only). The calendars stay: jobs scheduled by hand at run time may name them.
 */
final class QuartzSchedulingCleared implements SchedulerFactoryBeanCustomizer, Ordered {

    /** Set once the scheduler factory was customized: written and read on the thread that creates the beans. */
    private volatile boolean applied;

    @Override
    public void customize(SchedulerFactoryBean schedulerFactoryBean) {
        schedulerFactoryBean.setJobDetails();
        schedulerFactoryBean.setTriggers();
        applied = true;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** Whether Spring Boot's scheduler factory was customized, so holds no adopted job. */
    boolean applied() {
        return applied;
    }
}
