package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.RetryPolicy;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The log policy of docs/design.md ("Errors and logs"), on what the engine really writes (through System.Logger,
 * SLF4J and Logback): state changes at DEBUG, one summary line per successful instance on {@code io.ax.instances}, a
 * failed attempt as one WARN without stack trace, and the stack trace once, when an instance goes DEAD.
 */
class LogPolicyTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final int INSTANCES = 2_000;
    private static final String ENGINE = AxEngine.class.getName();
    private static final String SUMMARY = "io.ax.instances";

    private final Logger ax = (Logger) LoggerFactory.getLogger("io.ax");
    private final Capture log = new Capture();
    private final RecordingExecutor executor = new RecordingExecutor();
    private Level levelBefore;
    private AxEngine engine;

    @BeforeEach
    void captureEverythingAxLogs() {
        levelBefore = ax.getLevel();
        ax.setLevel(Level.DEBUG);
        ax.setAdditive(false); // thousands of DEBUG lines stay out of the build output
        log.start();
        ax.addAppender(log);
    }

    @AfterEach
    void restore() {
        if (engine != null) {
            engine.stop();
        }
        ax.detachAppender(log);
        ax.setAdditive(true);
        ax.setLevel(levelBefore);
    }

    @Test
    void thousandsOfSuccessfulInstancesLogOneSummaryLineEachAndNoTransitionAboveDebug() {
        start(task("work").build());
        for (int i = 0; i < INSTANCES; i++) {
            engine.triggerNow("work");
        }
        // the summary line follows the attempt, while its end goes to the store through the end writer's group
        // commit: the last ends may be logged a moment after the last summary
        await().atMost(BOUND)
                .until(() -> events(SUMMARY, Level.INFO).size() == INSTANCES
                        && transitions().size() >= INSTANCES * 2);

        assertThat(events(SUMMARY, Level.INFO))
                .allSatisfy(e -> assertThat(e.getFormattedMessage())
                        .matches("Task 'work' instance \\S+ SUCCESS on attempt 1 in \\d+ ms"));
        assertThat(events(ENGINE, Level.INFO))
                .extracting(ILoggingEvent::getFormattedMessage)
                .singleElement()
                .asString()
                .startsWith("AX engine started");
        assertThat(transitions())
                .as("every state change is logged, at DEBUG")
                .hasSizeGreaterThanOrEqualTo(INSTANCES * 2)
                .allSatisfy(e -> assertThat(e.getLevel()).isEqualTo(Level.DEBUG));
        assertThat(log.events()).noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
        assertThat(log.events()).noneMatch(e -> e.getThrowableProxy() != null);
    }

    @Test
    void aDeadInstanceLogsItsStackTraceExactlyOnce() {
        executor.when("doomed", ctx -> {
            throw new IllegalStateException("the downstream system is gone");
        });
        start(
                task("work").build(),
                task("doomed")
                        .retry(new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                        .build());
        for (int i = 0; i < 200; i++) {
            engine.triggerNow("work");
        }
        String dead = engine.triggerNow("doomed");
        await().atMost(BOUND)
                .until(() -> events(SUMMARY, Level.INFO).size() == 200
                        && !events(ENGINE, Level.ERROR).isEmpty());

        assertThat(log.events())
                .filteredOn(e -> e.getThrowableProxy() != null)
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.getLevel()).isEqualTo(Level.ERROR);
                    assertThat(e.getFormattedMessage()).contains(dead).contains("DEAD after 3 attempt(s)");
                    assertThat(e.getThrowableProxy().getMessage()).isEqualTo("the downstream system is gone");
                });
        assertThat(events(ENGINE, Level.WARN))
                .filteredOn(e -> e.getLevel() == Level.WARN)
                .hasSize(2)
                .allSatisfy(e -> {
                    assertThat(e.getFormattedMessage())
                            .contains(dead)
                            .contains("FAILED")
                            .contains("retrying");
                    assertThat(e.getThrowableProxy()).isNull();
                });
    }

    private void start(AxTask... tasks) {
        engine = AxEngine.builder()
                .store(new InMemoryInstanceStore(INSTANCES * 2))
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(4, INSTANCES * 2)))
                .build();
        for (AxTask task : tasks) {
            engine.register(task);
        }
        engine.start();
    }

    /** The engine's lines of state changes. */
    private List<ILoggingEvent> transitions() {
        return events(ENGINE, Level.DEBUG).stream()
                .filter(e -> e.getFormattedMessage().contains(" -> "))
                .toList();
    }

    /** Events of one logger at {@code level} or above. */
    private List<ILoggingEvent> events(String logger, Level level) {
        return log.events().stream()
                .filter(e -> e.getLoggerName().equals(logger))
                .filter(e -> e.getLevel().isGreaterOrEqual(level))
                .toList();
    }

    /** Keeps every event; the engine logs from many threads while the test reads. */
    private static final class Capture extends AppenderBase<ILoggingEvent> {
        private final List<ILoggingEvent> events = new ArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            event.prepareForDeferredProcessing();
            synchronized (events) {
                events.add(event);
            }
        }

        List<ILoggingEvent> events() {
            synchronized (events) {
                return List.copyOf(events);
            }
        }
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).concurrent(true).timeout(Duration.ofSeconds(20));
    }
}
