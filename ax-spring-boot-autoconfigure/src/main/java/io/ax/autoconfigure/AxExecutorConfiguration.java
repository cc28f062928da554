package io.ax.autoconfigure;

import io.ax.autoconfigure.definitions.AxTaskProperties;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxDeadLetterHandler;
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
            throw new InvalidAxSettingsException(
                    "ax.http",
                    e.getMessage(),
                    "List in ax.http.allowed-urls the absolute http(s) URL prefixes HTTP tasks may call, and give"
                            + " ax.http.connect-timeout a positive duration and ax.http.io-threads 1 or more.",
                    e);
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
            throw new InvalidAxSettingsException(
                    "ax.shell",
                    e.getMessage(),
                    "Create the folder, or point ax.shell.script-dir (and ax.shell.working-dir) at one that exists;"
                            + " a relative path is resolved against the folder the application was started in ("
                            + java.nio.file.Path.of("").toAbsolutePath() + "). Or set ax.shell.enabled=false if the"
                            + " application runs no scripts.",
                    e);
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
            throw new InvalidAxSettingsException(
                    "ax.retry",
                    e.getMessage(),
                    "Set ax.retry.times to 0 or more, ax.retry.base to a positive duration and ax.retry.max to at"
                            + " least the base.",
                    e);
        }
    }

    /** By default a dead letter becomes an {@link AxDeadLetterEvent} application event. */
    @Bean
    @ConditionalOnMissingBean
    AxDeadLetterHandler axDeadLetterHandler(ApplicationEventPublisher events) {
        return letter -> events.publishEvent(new AxDeadLetterEvent(letter));
    }
}
