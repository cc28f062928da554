package io.ax.autoconfigure;

import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxDeadLetterHandler;
import io.ax.core.AxException;
import io.ax.core.RetryPolicy;
import io.ax.executor.HttpExecutor;
import io.ax.executor.HttpSettings;
import io.ax.executor.ShellExecutor;
import io.ax.executor.ShellSettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The HTTP and shell executors, the default retry policy and the dead-letter handler; each backs off when the
 * application declares its own. Imported by {@link AxAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({AxTaskProperties.class, AxHttpProperties.class, AxShellProperties.class})
class AxExecutorConfiguration {

    @Bean
    @ConditionalOnMissingBean
    HttpExecutor axHttpExecutor(AxHttpProperties http) {
        try {
            return new HttpExecutor(new HttpSettings(
                    http.getAllowedUrls(),
                    (int) Math.min(Integer.MAX_VALUE, http.getMaxRecordedBody().toBytes()),
                    http.getConnectTimeout(),
                    http.getIoThreads()));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new AxException("Invalid AX HTTP settings: " + e.getMessage(), e);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    ShellExecutor axShellExecutor(AxShellProperties shell) {
        try {
            return new ShellExecutor(new ShellSettings(
                    shell.isEnabled(), shell.getScriptDir(), shell.getWorkingDir(), shell.getEnvironment(), (int)
                            Math.min(Integer.MAX_VALUE, shell.getMaxOutput().toBytes())));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new AxException("Invalid AX shell settings: " + e.getMessage(), e);
        }
    }

    /** The retry policy of tasks that set none, from {@code ax.retry.*}. */
    @Bean
    @ConditionalOnMissingBean
    RetryPolicy axDefaultRetryPolicy(AxTaskProperties properties) {
        AxTaskProperties.DefaultRetry r = properties.getRetry();
        try {
            return new RetryPolicy(r.getTimes(), r.getBackoff(), r.getBase(), r.getMax());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new AxException("Invalid AX retry settings (ax.retry): " + e.getMessage(), e);
        }
    }

    /** By default a dead letter becomes an {@link AxDeadLetterEvent} application event. */
    @Bean
    @ConditionalOnMissingBean
    AxDeadLetterHandler axDeadLetterHandler(ApplicationEventPublisher events) {
        return letter -> events.publishEvent(new AxDeadLetterEvent(letter));
    }
}
