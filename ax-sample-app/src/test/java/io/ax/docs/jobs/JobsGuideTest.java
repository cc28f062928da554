package io.ax.docs.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.AxScheduler;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.InvalidTaskException;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.testing.AxTestAutoConfiguration;
import io.ax.testing.AxTester;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The jobs guide's examples, run on the test kit's clock: what the guide says of them holds. */
class JobsGuideTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    JacksonAutoConfiguration.class, AxTestAutoConfiguration.class, AxAutoConfiguration.class))
            .withUserConfiguration(Examples.class)
            .withPropertyValues(
                    "ax.test.start=2026-12-01T08:00:00Z",
                    "ax.prefetch.window=3650d",
                    "ax.cluster.lease=3650d",
                    "ax.cluster.ack-timeout=3649d");

    /** What the examples' collaborators were asked to do, in order. */
    static final class Calls extends CopyOnWriteArrayList<String> {}

    @Configuration(proxyBeanMethods = false)
    @Import({ReportJobs.class, IndexJobs.class, ShopJobs.class, Checkout.class, OrderExport.class, RegionSync.class})
    static class Examples {

        @Bean
        Calls calls() {
            return new Calls();
        }

        @Bean
        ReportJobs.Services services() {
            return new ReportJobs.Services() {
                public int buildReport(Instant day) {
                    return 1;
                }

                public void pollInbox() {}

                public void syncCatalog() {}

                public void closeBillingHour(Instant hour) {}

                public void warmCache() {}
            };
        }

        @Bean
        IndexJobs.SearchIndex searchIndex(Calls calls) {
            return (region, full) -> calls.add("rebuild " + region + " full=" + full);
        }

        @Bean
        ShopJobs.Shop shop(Calls calls) {
            return new ShopJobs.Shop() {
                public void closeIfStillOpen(long orderId) {
                    calls.add("close " + orderId);
                }

                public void remind(String customerId, String key) {
                    calls.add("remind " + customerId + " " + key);
                }
            };
        }

        @Bean
        OrderExport.Warehouse warehouse(Calls calls) {
            return (run, cleaned, enriched) -> calls.add("load " + run + " " + cleaned + " " + enriched);
        }
    }

    private void run(Consumer<AssertableApplicationContext> test) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            test.accept(context);
        });
    }

    @Test
    void anUnpaidOrderClosesThirtyMinutesLaterOnceWhateverTheRepeats() {
        run(context -> {
            Checkout checkout = context.getBean(Checkout.class);
            AxTester ax = context.getBean(AxTester.class);
            Calls calls = context.getBean(Calls.class);

            String close = checkout.orderOpened(42);
            assertThat(checkout.orderOpened(42)).isEqualTo(close); // the same key: the same instance

            ax.advance(Duration.ofMinutes(29));
            assertThat(calls).doesNotContain("close 42");
            ax.advance(Duration.ofMinutes(1));
            assertThat(calls).containsOnlyOnce("close 42");
            assertThat(checkout.closeState(close)).hasValue(InstanceState.SUCCESS);
        });
    }

    @Test
    void aPaidOrderIsNeverClosedAndAMovedOneClosesLater() {
        run(context -> {
            Checkout checkout = context.getBean(Checkout.class);
            AxTester ax = context.getBean(AxTester.class);
            Calls calls = context.getBean(Calls.class);

            String paid = checkout.orderOpened(1);
            checkout.orderPaid(paid);
            String moved = checkout.orderOpened(2);
            assertThat(checkout.extendPaymentWindow(moved, ax.now().plus(Duration.ofHours(1))))
                    .isTrue();

            ax.advance(Duration.ofMinutes(31));
            assertThat(checkout.closeState(paid)).hasValue(InstanceState.CANCELLED);
            assertThat(calls).doesNotContain("close 1", "close 2");
            ax.advance(Duration.ofMinutes(30));
            assertThat(calls).contains("close 2");
        });
    }

    @Test
    void remindersAreScheduledTogetherAndReadTheirPayloadAndKey() {
        run(context -> {
            Checkout checkout = context.getBean(Checkout.class);
            AxTester ax = context.getBean(AxTester.class);
            Calls calls = context.getBean(Calls.class);

            List<String> ids =
                    checkout.remindAll(List.of("ann", "bob", "ann"), ax.now().plusSeconds(60));
            assertThat(ids.get(2)).isEqualTo(ids.get(0));
            ax.advance(Duration.ofMinutes(1));
            assertThat(calls).containsOnlyOnce("remind ann reminder-ann").contains("remind bob reminder-bob");
        });
    }

    @Test
    void badInputThrowsAndWritesNothing() {
        run(context -> {
            AxScheduler scheduler = context.getBean(AxScheduler.class);
            AxTester ax = context.getBean(AxTester.class);

            assertThatThrownBy(() ->
                            scheduler.schedule(ScheduleRequest.of("dailyReport").after(Duration.ofMinutes(1))))
                    .isInstanceOf(InvalidScheduleException.class)
                    .hasMessageContaining("has a trigger");
            assertThatThrownBy(() -> scheduler.scheduleAll(List.of(
                            ScheduleRequest.of("sendReminder").after(Duration.ofMinutes(1)),
                            ScheduleRequest.of("sendReminder").at(ax.now().minusSeconds(60)))))
                    .isInstanceOf(InvalidScheduleException.class)
                    .hasMessageContaining("(request 1)")
                    .hasMessageContaining("allowPast()");
            assertThatThrownBy(() -> scheduler.schedule(
                            ScheduleRequest.of("sendReminder").after(AxScheduler.HORIZON.plusDays(1))))
                    .hasMessageContaining("beyond the horizon");
            assertThatThrownBy(() -> scheduler.schedule(ScheduleRequest.of("sendReminder")
                            .after(Duration.ofMinutes(1))
                            .key("@noon")))
                    .hasMessageContaining("reserved for trigger fire times");
            assertThat(ax.instances("sendReminder")).isEmpty();
        });
    }

    @Test
    void aRunWithParametersSetsOnlyTheTasksOwn() {
        run(context -> {
            AxTester ax = context.getBean(AxTester.class);
            Calls calls = context.getBean(Calls.class);

            ax.runNow("rebuildIndex");
            ax.runNow("rebuildIndex", Map.of("region", "us", "full", "true"));
            assertThat(calls).containsSubsequence("rebuild eu full=false", "rebuild us full=true");
            assertThatThrownBy(() -> context.getBean(AxEngine.class).triggerNow("rebuildIndex", Map.of("shard", "7")))
                    .isInstanceOf(InvalidTaskException.class)
                    .hasMessageContaining("the task has no parameter 'shard'");
        });
    }

    @Test
    void aRunOfTheWorkflowFansOutAndIn() {
        run(context -> {
            AxTester ax = context.getBean(AxTester.class);
            Calls calls = context.getBean(Calls.class);

            String run = ax.runNow("extract").instance().id();
            ax.awaitQuiet();

            assertThat(calls).contains("load " + run + " orders-2026-12-01.csv.clean orders-2026-12-01.csv.enriched");
        });
    }
}
