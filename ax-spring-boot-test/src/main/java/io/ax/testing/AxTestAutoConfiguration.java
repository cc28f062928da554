package io.ax.testing;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.engine.AxEngine;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The engine of a test context on a clock the test moves: the clock and the timer replace AX's own (which give way
 * to beans of these types), and the {@link AxTester} drives them. Imported by {@link AutoConfigureAxTest} only,
 * never by itself.
 */
@AutoConfiguration(before = AxAutoConfiguration.class)
@EnableConfigurationProperties(AxTestProperties.class)
public class AxTestAutoConfiguration {

    @Bean
    AxTestClock axTestClock(AxTestProperties properties) {
        Instant start = properties.getStart();
        return new AxTestClock(start != null ? start : Instant.now().truncatedTo(ChronoUnit.SECONDS));
    }

    @Bean
    AxTestTimers axTestTimers() {
        return new AxTestTimers();
    }

    @Bean
    AxTestActivity axTestActivity() {
        return new AxTestActivity();
    }

    @Bean
    AxTester axTester(
            AxEngine engine,
            AxTestClock clock,
            AxTestTimers timers,
            AxTestActivity activity,
            AxTestProperties properties) {
        return new AxTester(engine, clock, timers, activity, properties.getAwait(), properties.getPatience());
    }
}
