package io.ax.docs.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.AxScheduler;
import io.ax.core.AxTask;
import io.ax.core.Rate;
import io.ax.core.engine.AxEngine;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The guide's tasks start as the guide says: each with its priority, its limit, its mutex or its rate. */
class FlowControlJobsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class))
            .withPropertyValues("ax.strict-properties=true", "ax.pools.partner-api.cluster-limit=8")
            .withBean(FlowControlJobs.Shop.class, FlowControlJobsTest::noShop)
            .withBean(FlowControlJobs.class);

    @Test
    void theTasksCarryTheirPrioritiesAndLimits() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            AxEngine engine = context.getBean(AxEngine.class);
            assertThat(task(engine, "customer-report").priority()).isEqualTo(50);
            assertThat(task(engine, "nightly-export").priority()).isEqualTo(-10);
            assertThat(task(engine, "export").limits().maxConcurrent()).isEqualTo(2);
            assertThat(task(engine, "charge").limits().mutexKey(java.util.Map.of(), "customer-7:charge-1042"))
                    .isEqualTo(task(engine, "refund").limits().mutexKey(java.util.Map.of(), "customer-7:refund-88"))
                    .isEqualTo("customer-7");
            AxTask rebuild = task(engine, "rebuild-index");
            assertThat(rebuild.limits().mutexKey(rebuild.params(), null)).isEqualTo("index-eu");
            assertThat(task(engine, "sync-partner").limits().rate()).isEqualTo(Rate.parse("100/1m"));
            assertThat(context.getBean(AxScheduler.class)).isSameAs(engine);
        });
    }

    @Test
    void aScheduledExecutionKeepsItsOwnPriority() {
        runner.run(context -> {
            FlowControlJobs jobs = context.getBean(FlowControlJobs.class);
            jobs.reportNow("customer-7");
            AxEngine engine = context.getBean(AxEngine.class);
            assertThat(engine.instancesOf("customer-report", 1))
                    .singleElement()
                    .satisfies(i -> assertThat(i.priority()).isEqualTo(100));
        });
    }

    private static AxTask task(AxEngine engine, String name) {
        return engine.task(name).orElseThrow();
    }

    /** A shop that does nothing: these tests start the tasks, they do not run them. */
    private static FlowControlJobs.Shop noShop() {
        return (FlowControlJobs.Shop) Proxy.newProxyInstance(
                FlowControlJobs.Shop.class.getClassLoader(),
                new Class<?>[] {FlowControlJobs.Shop.class},
                (proxy, method, args) -> null);
    }
}
