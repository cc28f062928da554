package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

/**
 * A wall clock that jumps, forwards then backwards, on a running application: the {@code ax} health component goes
 * OUT_OF_SERVICE for the pause, the endpoint shows it, and each jump is a Spring event.
 */
@SpringBootTest(
        classes = AxClockJumpWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=ax,health",
            "management.endpoint.health.show-details=always",
            "ax.clock.jump-threshold=500ms",
            "ax.clock.pause=1h"
        })
class AxClockJumpWebTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    ShiftedClock clock;

    @Autowired
    App app;

    @Test
    void aClockJumpEitherWayTakesTheComponentOutOfServiceForThePause() {
        Http http = new Http(port);
        assertThat(http.get("/actuator/health/ax").<String>read("$.status")).isEqualTo("UP");

        clock.shift(Duration.ofMinutes(10));

        await().atMost(BOUND).until(() -> app.jumps.size() == 1);
        assertThat(app.jumps.get(0).forwards()).isTrue();
        assertThat(app.jumps.get(0).jump()).isBetween(Duration.ofSeconds(599), Duration.ofSeconds(601));
        Http.Answer health = http.get("/actuator/health/ax");
        assertThat(health.status()).isEqualTo(503);
        assertThat(health.<String>read("$.status")).isEqualTo("OUT_OF_SERVICE");
        assertThat(health.<String>read("$.details.clock")).startsWith("paused for ");
        assertThat(http.get("/actuator/health").status()).isEqualTo(503);
        Http.Answer ax = http.get("/actuator/ax");
        assertThat(ax.<String>read("$.clock.status")).isEqualTo("paused");
        assertThat(ax.<Integer>read("$.clock.jumps")).isEqualTo(1);
        assertThat(ax.<Integer>read("$.clock.pauseLeftMillis")).isPositive();

        clock.shift(Duration.ofMinutes(-20));

        await().atMost(BOUND).until(() -> app.jumps.size() == 2);
        assertThat(app.jumps.get(1).forwards()).isFalse();
        assertThat(http.get("/actuator/health/ax").<String>read("$.status")).isEqualTo("OUT_OF_SERVICE");
        assertThat(http.get("/actuator/ax").<Integer>read("$.clock.jumps")).isEqualTo(2);
    }

    /** The system clocks, with a wall-clock offset the test can change, as an NTP step would. */
    static final class ShiftedClock implements AxClock {
        private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

        void shift(Duration by) {
            offset.updateAndGet(o -> o.plus(by));
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset.get());
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        final List<AxClockJumpEvent> jumps = new CopyOnWriteArrayList<>();

        @Bean
        ShiftedClock shiftedClock() {
            return new ShiftedClock();
        }

        @EventListener
        void on(AxClockJumpEvent event) {
            jumps.add(event);
        }
    }
}
