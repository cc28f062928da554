package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxExecutor;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.AxScheduler;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.PayloadCodec;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import io.ax.core.wheel.AxTimer;
import io.ax.core.wheel.AxTimerFactory;
import io.ax.core.wheel.WheelTimer;
import io.ax.executor.LocalMethodExecutor;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

@ExtendWith(OutputCaptureExtension.class)
class AxAutoConfigurationTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    @Test
    void providesARunningEngineWithItsPartsByDefault() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(AxEngine.class);
            assertThat(context).hasSingleBean(InstanceStore.class);
            assertThat(context).hasSingleBean(LocalMethodExecutor.class);
            assertThat(context).hasSingleBean(ExecutorRouter.class);
            assertThat(context.getBean(InstanceStore.class)).isInstanceOf(InMemoryInstanceStore.class);
            assertThat(context.getBean(AxEngine.class).isRunning()).isTrue();
        });
    }

    @Test
    void backsOffWhenTheUserDefinesAStore() {
        runner.withUserConfiguration(UserStore.class).run(context -> {
            assertThat(context).hasSingleBean(InstanceStore.class);
            assertThat(context.getBean(InstanceStore.class)).isSameAs(UserStore.STORE);
            assertThat(context.getBean(AxEngine.class).store()).isSameAs(UserStore.STORE);
        });
    }

    @Test
    void theEngineKeepsItsDueWorkInTheApplicationsTimerWhenItDeclaresOne() {
        runner.withUserConfiguration(CountingTimers.class, Jobs.class)
                .withPropertyValues("jobs.rate=50ms")
                .run(context -> {
                    assertThat(context).getBean(AxTimerFactory.class).isInstanceOf(CountingTimers.Factory.class);
                    JobsBean jobs = context.getBean(JobsBean.class);
                    await().atMost(BOUND).until(() -> jobs.contexts.size() >= 3);
                    CountingTimers.Factory timers = context.getBean(CountingTimers.Factory.class);
                    assertThat(timers.created).as("timers made").hasValue(1);
                    assertThat(timers.scheduled.get())
                            .as("entries the engine scheduled in it")
                            .isPositive();
                });
    }

    @Test
    void backsOffWhenTheUserDefinesAnEngine() {
        runner.withUserConfiguration(UserEngine.class).run(context -> {
            assertThat(context).hasSingleBean(AxEngine.class);
            assertThat(context.getBean(AxEngine.class).nodeId()).isEqualTo("users-own");
        });
    }

    @Test
    void clusterSettingsThatCannotWorkTogetherStopStartUpNamingBoth() {
        runner.withPropertyValues("ax.cluster.heartbeat=5s", "ax.cluster.lease=8s")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("ax.cluster.lease (PT8S)")
                        .hasMessageContaining("ax.cluster.heartbeat (PT5S)"));
    }

    @Test
    void retentionSettingsThatAreZeroOrNegativeStopStartUpNamingTheProperty() {
        for (String[] bad : new String[][] {
            {"ax.retention.finished=0s", "ax.retention.finished must be positive, was PT0S"},
            {"ax.retention.dead=-1d", "ax.retention.dead must be positive, was PT-24H"},
            {"ax.retention.interval=0ms", "ax.retention.interval must be positive, was PT0S"},
            {"ax.retention.batch-size=0", "ax.retention.batch-size must be between 1 and 10000, was 0"},
            {"ax.retention.batch-size=-5", "ax.retention.batch-size must be between 1 and 10000, was -5"}
        }) {
            runner.withPropertyValues(bad[0])
                    .run(context -> assertThat(context)
                            .as(bad[0])
                            .hasFailed()
                            .getFailure()
                            .rootCause()
                            .hasMessageContaining(bad[1]));
        }
    }

    @Test
    void retentionMayBeTurnedOffOrTuned() {
        runner.withPropertyValues("ax.retention.enabled=false", "ax.retention.finished=0s")
                .run(context -> assertThat(context)
                        .as("settings are checked even when retention is off")
                        .hasFailed());
        runner.withPropertyValues(
                        "ax.retention.enabled=false",
                        "ax.retention.finished=3d",
                        "ax.retention.dead=90d",
                        "ax.retention.interval=30s",
                        "ax.retention.batch-size=2000")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxProperties.Retention retention =
                            context.getBean(AxProperties.class).getRetention();
                    assertThat(retention.isEnabled()).isFalse();
                    assertThat(retention.getFinished()).isEqualTo(Duration.ofDays(3));
                    assertThat(retention.getDead()).isEqualTo(Duration.ofDays(90));
                    assertThat(retention.getInterval()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(retention.getBatchSize()).isEqualTo(2000);
                });
    }

    @Test
    void aNodeAloneLeadsItsClusterOfOne() {
        runner.withPropertyValues("ax.node-id=solo").run(context -> {
            AxEngine engine = context.getBean(AxEngine.class);
            engine.start();
            assertThat(engine.status().cluster().isLeader()).isTrue();
            assertThat(engine.status().cluster().liveNodes()).containsExactly("solo");
            engine.stop();
        });
    }

    @Test
    void routesToExecutorsTheUserDeclares() {
        runner.withUserConfiguration(UserExecutor.class).run(context -> {
            assertThat(context.getBean(ExecutorRouter.class).route("PIGEON")).isInstanceOf(PigeonExecutor.class);
            assertThat(context.getBean(ExecutorRouter.class).route(AxTask.LOCAL))
                    .isInstanceOf(LocalMethodExecutor.class);
        });
    }

    @Test
    void turnsItselfOffWhenDisabled() {
        runner.withPropertyValues("ax.enabled=false")
                .withUserConfiguration(Jobs.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(AxEngine.class);
                    assertThat(context).doesNotHaveBean(InstanceStore.class);
                });
    }

    @Test
    void registersAnnotatedMethodsAsTasksAndRunsThem() {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues("jobs.rate=40ms", "ax.node-id=node-7", "ax.default-zone=Europe/Berlin")
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    JobsBean jobs = context.getBean(JobsBean.class);
                    assertThat(engine.nodeId()).isEqualTo("node-7");
                    assertThat(engine.task("jobs.pulse").orElseThrow().trigger())
                            .isEqualTo(IntervalTrigger.fixedRate(Duration.ofMillis(40), Duration.ZERO));
                    AxTask nightly = engine.task("nightly").orElseThrow();
                    assertThat(nightly.trigger()).isEqualTo(CronTrigger.of("0 0 2 * * ?", ZoneId.of("Europe/Berlin")));
                    assertThat(nightly.timeout()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(nightly.retry().maxRetries()).isEqualTo(3);
                    assertThat(nightly.retry().base()).isEqualTo(Duration.ofMillis(500));
                    assertThat(nightly.group()).isEqualTo("reports");
                    assertThat(engine.task("handler").orElseThrow().trigger()).isEqualTo(OnDemandTrigger.INSTANCE);
                    await().atMost(BOUND).until(() -> jobs.contexts.size() >= 2);
                    assertThat(jobs.contexts.get(0).taskName()).isEqualTo("jobs.pulse");
                    String id = engine.triggerNow("handler");
                    await().atMost(BOUND)
                            .until(() -> engine.store()
                                    .find(id)
                                    .map(i -> i.state() == InstanceState.SUCCESS)
                                    .orElse(false));
                });
    }

    @Test
    void schedulesOnDemandHandlersWithJsonPayloadsThroughTheApplicationsMapper() {
        runner.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withUserConfiguration(OrderHandlers.class)
                .withPropertyValues("ax.payload.max-size=1KB")
                .run(context -> {
                    AxScheduler scheduler = context.getBean(AxScheduler.class);
                    assertThat(scheduler).isSameAs(context.getBean(AxEngine.class));
                    assertThat(context).hasSingleBean(PayloadCodec.class);

                    String id =
                            scheduler.schedule("closeOrder", Duration.ofMillis(50), new OrderHandlers.Order(7, "tea"));

                    await().atMost(BOUND).until(() -> !OrderHandlers.CLOSED.isEmpty());
                    assertThat(OrderHandlers.CLOSED).containsExactly(new OrderHandlers.Order(7, "tea"));
                    assertThat(scheduler.find(id).orElseThrow().instance().taskName())
                            .isEqualTo("closeOrder");
                    assertThatThrownBy(() -> scheduler.schedule("closeOrder", Duration.ZERO, "x".repeat(1025)))
                            .isInstanceOf(InvalidScheduleException.class)
                            .hasMessageContaining("1024");
                });
    }

    @Test
    void withoutAJsonMapperPayloadsAreStringsOrBytes() {
        runner.withUserConfiguration(OrderHandlers.class).run(context -> {
            assertThat(context).doesNotHaveBean(PayloadCodec.class);
            assertThatThrownBy(() -> context.getBean(AxScheduler.class)
                            .schedule("closeOrder", Duration.ZERO, new OrderHandlers.Order(1, "x")))
                    .isInstanceOf(InvalidScheduleException.class)
                    .hasMessageContaining("No PayloadCodec");
        });
    }

    @Test
    void warnsAboutJobsWithoutATimeout(CapturedOutput output) {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues("jobs.rate=1h")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output).contains("@AxJob 'handler'").contains("sets no timeout");
                    assertThat(output).doesNotContain("@AxJob 'nightly' on");
                });
    }

    @Test
    void publishesDeadLettersAsSpringEvents() {
        runner.withUserConfiguration(DoomedJob.class).run(context -> {
            DoomedJob job = context.getBean(DoomedJob.class);
            context.getBean(AxEngine.class).triggerNow("doomed");
            await().atMost(BOUND).until(() -> job.events.size() == 1);
            assertThat(job.events.get(0).deadLetter().taskName()).isEqualTo("doomed");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class UserStore {
        static final InstanceStore STORE = new InMemoryInstanceStore(5);

        @Bean
        InstanceStore myStore() {
            return STORE;
        }
    }

    /** A timer of the application's own: the timing wheel, counting what the engine schedules in it. */
    @Configuration(proxyBeanMethods = false)
    static class CountingTimers {
        static final class Factory implements AxTimerFactory {
            final AtomicInteger created = new AtomicInteger();
            final AtomicInteger scheduled = new AtomicInteger();

            @Override
            public AxTimer<Object> create(
                    Duration tick, LongSupplier nanoClock, Consumer<Object> dispatcher, String threadName) {
                created.incrementAndGet();
                WheelTimer<Object> wheel = new WheelTimer<>(tick, nanoClock, dispatcher, threadName);
                return new AxTimer<>() {
                    public void start() {
                        wheel.start();
                    }

                    public long schedule(long deadlineNanos, Object payload) {
                        scheduled.incrementAndGet();
                        return wheel.schedule(deadlineNanos, payload);
                    }

                    public boolean cancel(long handle) {
                        return wheel.cancel(handle);
                    }

                    public boolean reschedule(long handle, long deadlineNanos) {
                        return wheel.reschedule(handle, deadlineNanos);
                    }

                    public Object payload(long handle) {
                        return wheel.payload(handle);
                    }

                    public int size() {
                        return wheel.size();
                    }

                    public long nowNanos() {
                        return wheel.nowNanos();
                    }

                    public long dispatchFailures() {
                        return wheel.dispatchFailures();
                    }

                    public void close() {
                        wheel.close();
                    }
                };
            }
        }

        @Bean
        Factory countingTimers() {
            return new Factory();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserEngine {
        @Bean
        AxEngine myEngine() {
            return AxEngine.builder()
                    .store(new InMemoryInstanceStore())
                    .router(new ExecutorRouter(List.of(new LocalMethodExecutor())))
                    .nodeId("users-own")
                    .build();
        }
    }

    static class PigeonExecutor implements AxExecutor {
        @Override
        public boolean matchTaskType(String type) {
            return "PIGEON".equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            return AxResult.success();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserExecutor {
        @Bean
        PigeonExecutor pigeon() {
            return new PigeonExecutor();
        }
    }

    static class JobsBean {
        final List<AxContext> contexts = new CopyOnWriteArrayList<>();

        @AxJob(fixedRate = "${jobs.rate}", timeout = "5s")
        void pulse(AxContext context) {
            contexts.add(context);
        }

        @AxJob(
                name = "nightly",
                cron = "0 0 2 * * ?",
                timeout = "2m",
                group = "reports",
                retry = @AxJob.Retry(times = "3", base = "500ms", max = "1m"))
        void nightly() {}

        @AxJob(name = "handler")
        AxResult handler() {
            return AxResult.success("handled");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {
        @Bean
        JobsBean jobs() {
            return new JobsBean();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class DoomedJob {
        final List<AxDeadLetterEvent> events = new CopyOnWriteArrayList<>();

        @AxJob(name = "doomed", timeout = "5s")
        void doomed() {
            throw new IllegalStateException("always");
        }

        @EventListener
        void on(AxDeadLetterEvent event) {
            events.add(event);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OrderHandlers {

        record Order(int id, String item) {}

        static final List<Order> CLOSED = new CopyOnWriteArrayList<>();

        @AxJob(name = "closeOrder", timeout = "5s")
        void close(AxContext context) {
            CLOSED.add(context.payload(Order.class));
        }
    }
}
