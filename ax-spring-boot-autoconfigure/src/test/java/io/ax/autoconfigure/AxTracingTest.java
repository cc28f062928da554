package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.ax.autoconfigure.observation.AxObservationAutoConfiguration;
import io.ax.autoconfigure.observation.AxTracingAutoConfiguration;
import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.TraceContextCapture;
import io.ax.core.store.InstanceStore;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.jdbc.TestDatabase;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The span that was current when an execution was scheduled is the parent of its attempts' spans: with Spring Boot's
 * own tracing set-up (Brave, W3C propagation) and the spans as Brave finishes them.
 */
class AxTracingTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String PREFIX = "axtr_";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    ObservationAutoConfiguration.class,
                    MicrometerTracingAutoConfiguration.class,
                    BraveAutoConfiguration.class,
                    AxObservationAutoConfiguration.class,
                    AxTracingAutoConfiguration.class,
                    AxAutoConfiguration.class))
            .withPropertyValues("management.tracing.sampling.probability=1.0")
            .withUserConfiguration(Jobs.class)
            .withBean(FinishedSpans.class);

    @Test
    void anExecutionScheduledInsideASpanRunsAsItsChild() {
        runner.run(context -> {
            Scheduled scheduled =
                    scheduleInsideASpan(context, engine -> engine.schedule("traced", Duration.ZERO, null));

            MutableSpan attempt = attemptSpan(context, scheduled.id(), 1);
            assertThat(attempt.traceId()).isEqualTo(scheduled.traceId());
            assertThat(attempt.parentId()).isEqualTo(scheduled.spanId());
            assertThat(attempt.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
            assertThat(attempt.name()).isEqualTo("ax traced");
            assertThat(context.getBean(Jobs.class).traceIds)
                    .as("the handler's own spans and log lines carry the scheduling request's trace id")
                    .containsEntry(scheduled.id(), scheduled.traceId());
        });
    }

    @Test
    void aMemoryExecutionScheduledInsideASpanRunsAsItsChild() {
        runner.run(context -> {
            Scheduled scheduled = scheduleInsideASpan(
                    context,
                    engine -> engine.schedule(ScheduleRequest.of("traced")
                            .after(Duration.ofMillis(50))
                            .durability(Durability.MEMORY)));

            MutableSpan attempt = attemptSpan(context, scheduled.id(), 1);
            assertThat(attempt.traceId()).isEqualTo(scheduled.traceId());
            assertThat(attempt.parentId()).isEqualTo(scheduled.spanId());
        });
    }

    @Test
    void everyAttemptOfARetriedExecutionContinuesTheSchedulingSpan() {
        runner.run(context -> {
            Scheduled scheduled = scheduleInsideASpan(context, engine -> engine.schedule("flaky", Duration.ZERO, null));

            MutableSpan first = attemptSpan(context, scheduled.id(), 1);
            MutableSpan second = attemptSpan(context, scheduled.id(), 2);
            assertThat(List.of(first, second)).allSatisfy(span -> {
                assertThat(span.traceId()).isEqualTo(scheduled.traceId());
                assertThat(span.parentId()).isEqualTo(scheduled.spanId());
            });
            assertThat(first.tags()).containsEntry("outcome", "failed");
            assertThat(second.tags()).containsEntry("outcome", "success");
        });
    }

    @Test
    void anExecutionScheduledOutsideAnySpanRunsAsARootSpan() {
        runner.run(context -> {
            AxEngine engine = context.getBean(AxEngine.class);
            String id = engine.schedule("traced", Duration.ZERO, null);

            MutableSpan attempt = attemptSpan(context, id, 1);
            assertThat(attempt.parentId()).isNull();
            assertThat(engine.store().find(id).orElseThrow().traceParent()).isNull();
        });
    }

    @Test
    void aRunTriggeredByHandInsideASpanStartsATraceOfItsOwn() {
        runner.run(context -> {
            Scheduled triggered = scheduleInsideASpan(context, engine -> engine.triggerNow("traced"));

            MutableSpan attempt = attemptSpan(context, triggered.id(), 1);
            assertThat(attempt.parentId()).isNull();
            assertThat(attempt.traceId()).isNotEqualTo(triggered.traceId());
        });
    }

    @Test
    void withOnlyB3PropagationNothingIsCapturedAndTheAttemptIsARootSpan() {
        runner.withPropertyValues("management.tracing.propagation.type=b3").run(context -> {
            Scheduled scheduled =
                    scheduleInsideASpan(context, engine -> engine.schedule("traced", Duration.ZERO, null));

            MutableSpan attempt = attemptSpan(context, scheduled.id(), 1);
            assertThat(attempt.parentId()).isNull();
            assertThat(context.getBean(AxEngine.class)
                            .store()
                            .find(scheduled.id())
                            .orElseThrow()
                            .traceParent())
                    .isNull();
        });
    }

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"H2", "POSTGRESQL"})
    void theTraceParentSurvivesTheJdbcStore(TestDatabase database) {
        database.migrate(PREFIX);
        database.truncate(PREFIX);
        // a short window and a later due time: the instance is not handed to the wheel when it is scheduled but
        // loaded from the store in time, as a far-future one (or one after a restart) is
        runner.withBean(InstanceStore.class, () -> new JdbcInstanceStore(database.dataSource(), PREFIX))
                .withPropertyValues("ax.prefetch.window=1s")
                .run(context -> {
                    Scheduled scheduled = scheduleInsideASpan(
                            context, engine -> engine.schedule("traced", Duration.ofSeconds(3), null));

                    String stored = new JdbcTemplate(database.dataSource())
                            .queryForObject(
                                    "SELECT trace_parent FROM " + PREFIX + "instance WHERE id = ?",
                                    String.class,
                                    scheduled.id());
                    assertThat(stored).isEqualTo("00-" + scheduled.traceId() + "-" + scheduled.spanId() + "-01");
                    MutableSpan attempt = attemptSpan(context, scheduled.id(), 1);
                    assertThat(attempt.traceId()).isEqualTo(scheduled.traceId());
                    assertThat(attempt.parentId()).isEqualTo(scheduled.spanId());
                });
    }

    @Test
    void withoutATracerNothingIsCaptured() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AxObservationAutoConfiguration.class,
                        AxTracingAutoConfiguration.class,
                        AxAutoConfiguration.class))
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .run(context -> assertThat(context).doesNotHaveBean(TraceContextCapture.class));
    }

    /** What the caller's span was when it scheduled {@code id}. */
    private record Scheduled(String id, String traceId, String spanId) {}

    /** Schedules inside a span of its own, as a request handled by a traced web application would. */
    private static Scheduled scheduleInsideASpan(
            AssertableApplicationContext context, Function<AxEngine, String> schedule) {
        Tracer tracer = context.getBean(Tracer.class);
        AxEngine engine = context.getBean(AxEngine.class);
        Span request = tracer.nextSpan().name("request").start();
        try (Tracer.SpanInScope ignored = tracer.withSpan(request)) {
            String id = schedule.apply(engine);
            return new Scheduled(
                    id, request.context().traceId(), request.context().spanId());
        } finally {
            request.end();
        }
    }

    /** The finished span of one attempt, once Brave has it. */
    private static MutableSpan attemptSpan(AssertableApplicationContext context, String instanceId, int attempt) {
        FinishedSpans spans = context.getBean(FinishedSpans.class);
        await().atMost(BOUND).until(() -> spans.attempt(instanceId, attempt) != null);
        return spans.attempt(instanceId, attempt);
    }

    /** Every span Brave finishes, as Spring Boot hands them to the application's span handlers. */
    static final class FinishedSpans extends SpanHandler {

        private final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            spans.add(span);
            return true;
        }

        MutableSpan attempt(String instanceId, int attempt) {
            return spans.stream()
                    .filter(s -> instanceId.equals(s.tag("instance.id"))
                            && Integer.toString(attempt).equals(s.tag("attempt")))
                    .findFirst()
                    .orElse(null);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        /** Instance id -> the trace id current while its handler ran. */
        final Map<String, String> traceIds = new ConcurrentHashMap<>();

        private final ObjectProvider<Tracer> tracer;

        Jobs(ObjectProvider<Tracer> tracer) {
            this.tracer = tracer;
        }

        @AxJob(name = "traced", timeout = "5s")
        void traced(AxContext context) {
            Span current = tracer.getObject().currentSpan();
            if (current != null) {
                traceIds.put(context.instanceId(), current.context().traceId());
            }
        }

        @AxJob(
                name = "flaky",
                timeout = "5s",
                retry = @AxJob.Retry(times = "1", backoff = Backoff.FIXED, base = "100ms"))
        void flaky(AxContext context) {
            if (context.attempt() == 1) {
                throw new IllegalStateException("not yet");
            }
        }
    }
}
