package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.InvalidAxSettingsException;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Spring {@code @Scheduled} methods run by AX, once per fire across the cluster, with {@code ax.adopt.scheduled}
 * set to {@code locked} (those under ShedLock's {@code @SchedulerLock}) or {@code all}: Spring's scheduler no
 * longer runs them, every other one stays Spring's. ShedLock's annotations are read when ShedLock is on the class
 * path; nothing of it is needed otherwise.
 */
@AutoConfiguration(after = AxAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "ax.enabled", matchIfMissing = true)
@Conditional(OnScheduledAdoption.class)
public final class AxScheduledAdoptionAutoConfiguration {

    @Bean
    static ScheduledProcessorReplacement axScheduledProcessorReplacement() {
        return new ScheduledProcessorReplacement();
    }

    @Bean
    static ScheduledMethodAdoption axScheduledMethodAdoption() {
        return new ScheduledMethodAdoption();
    }

    /** ShedLock's locks, read from its annotations. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = AdoptionRule.SCHEDULER_LOCK)
    static class ShedLockConfiguration {

        @Bean
        SchedulerLocks axShedLockLocks(
                ConfigurableListableBeanFactory beanFactory,
                AxProperties properties,
                ObjectProvider<LockProvider> lockProviders) {
            boolean take = properties.getAdopt().isTakeShedlockLocks();
            LockProvider shedLocks = take ? lockProviders.getIfUnique() : null;
            if (take && shedLocks == null) {
                throw new InvalidAxSettingsException(
                        "ax.adopt.take-shedlock-locks",
                        "it is true, but there is no single ShedLock LockProvider bean whose locks the runs could take",
                        "Declare ShedLock's LockProvider bean, or set ax.adopt.take-shedlock-locks=false.",
                        null);
            }
            return new ShedLockLocks(
                    value -> {
                        String resolved = beanFactory.resolveEmbeddedValue(value);
                        return resolved == null ? "" : resolved;
                    },
                    beanFactory,
                    shedLocks);
        }
    }
}
