package io.ax.autoconfigure;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.observation.AxObservationAutoConfiguration;
import io.ax.core.AxJob;
import io.ax.core.InstanceState;
import io.ax.core.engine.AttemptTracer;
import io.ax.core.engine.AxEngine;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Each attempt is an {@code ax.attempt} observation, current while its handler runs. */
class AxObservationTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AxObservationAutoConfiguration.class, AxAutoConfiguration.class))
            .withUserConfiguration(Jobs.class);

    @Test
    void anAttemptIsAnObservationWithItsTagsCurrentWhileTheHandlerRuns() {
        runner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);

                    String id = engine.triggerNow("traced");
                    await().atMost(BOUND).until(() -> state(engine, id) == InstanceState.SUCCESS);

                    assertThat(registry)
                            .hasObservationWithNameEqualTo("ax.attempt")
                            .that()
                            .hasContextualNameEqualTo("ax traced")
                            .hasLowCardinalityKeyValue("task", "traced")
                            .hasLowCardinalityKeyValue("group", "default")
                            .hasLowCardinalityKeyValue("outcome", "success")
                            .hasHighCardinalityKeyValue("instance.id", id)
                            .hasHighCardinalityKeyValue("attempt", "1")
                            .hasBeenStarted()
                            .hasBeenStopped();
                    Observation current = context.getBean(Jobs.class).seen.get();
                    assertThat(current)
                            .as("the handler ran inside its attempt's observation")
                            .isNotNull();
                    assertThat(current.getContext().getName()).isEqualTo("ax.attempt");
                });
    }

    @Test
    void aFailedAttemptCarriesItsOutcomeAndError() {
        runner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);

                    String id = engine.triggerNow("broken");
                    await().atMost(BOUND).until(() -> state(engine, id) == InstanceState.DEAD);

                    assertThat(registry)
                            .hasObservationWithNameEqualTo("ax.attempt")
                            .that()
                            .hasLowCardinalityKeyValue("task", "broken")
                            .hasLowCardinalityKeyValue("outcome", "failed")
                            .assertThatError()
                            .hasMessage("no luck");
                });
    }

    @Test
    void withoutAnObservationRegistryNothingIsTraced() {
        runner.run(context -> assertThat(context).doesNotHaveBean(AttemptTracer.class));
    }

    private static InstanceState state(AxEngine engine, String id) {
        return engine.find(id).map(d -> d.instance().state()).orElse(null);
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        final AtomicReference<Observation> seen = new AtomicReference<>();
        private final ObjectProvider<ObservationRegistry> registry;

        Jobs(ObjectProvider<ObservationRegistry> registry) {
            this.registry = registry;
        }

        @AxJob(name = "traced", timeout = "5s")
        void traced() {
            seen.set(registry.getObject().getCurrentObservation());
        }

        @AxJob(name = "broken", timeout = "5s")
        void broken() {
            throw new IllegalStateException("no luck");
        }
    }
}
