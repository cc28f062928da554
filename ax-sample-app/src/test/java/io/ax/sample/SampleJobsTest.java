package io.ax.sample;

import static io.ax.testing.AxAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.sample.orders.Order;
import io.ax.sample.orders.OrderController;
import io.ax.sample.orders.OrderRepository;
import io.ax.testing.AutoConfigureAxTest;
import io.ax.testing.AxTester;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample's jobs tested as docs/testing.md shows (its examples are this class's tagged regions): the engine runs on a clock the test moves, so a
 * 30-minute payment window, a minute of a 5-second cron and the retries' back-offs pass in milliseconds.
 */
// tag::setup[]
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.datasource.url=jdbc:h2:mem:sample-jobs;DB_CLOSE_DELAY=-1",
            "ax.test.start=2026-12-01T08:00:00Z",
            // the HTTP task calls this app's health over HTTP, and this test starts no server: once a year only
            "ax.tasks.self-check.trigger.cron=0 0 0 1 1 ?",
            // the tasks no test here is about fire rarely: every step of the clock costs a few milliseconds
            "sample.tick.rate=1h",
            "sample.flaky.delay=1h",
            "sample.doomed.delay=1h",
            "sample.slow.delay=1d",
            // 'slow' sleeps 30 s of real time, past its timeout: the clock moves past it after this long
            "ax.test.patience=200ms"
        })
@AutoConfigureAxTest
class SampleJobsTest {

    @Autowired
    AxTester ax;

    @Autowired
    OrderController shop;

    @Autowired
    OrderRepository orders;
    // end::setup[]

    // tag::cron[]
    @Test
    void theHeartbeatRunsEveryFiveSeconds() {
        Instant from = ax.now();

        ax.advance(Duration.ofMinutes(1));

        List<TaskInstance> beats = ax.instances("heartbeat").stream()
                .filter(i ->
                        i.scheduledTime().isAfter(from) && !i.scheduledTime().isAfter(ax.now()))
                .toList();
        assertThat(beats).hasSize(12).allMatch(i -> i.state() == InstanceState.SUCCESS);
    }
    // end::cron[]

    // tag::delayed[]
    @Test
    void anUnpaidOrderClosesWhenItsThirtyMinutesAreUp() {
        Order order = shop.open(new OrderController.NewOrder("book")).getBody();

        ax.advance(Duration.ofMinutes(29));
        assertThat(orders.find(order.id()).orElseThrow().state()).isEqualTo(Order.State.OPEN);

        ax.advance(Duration.ofMinutes(1));
        assertThat(orders.find(order.id()).orElseThrow().state()).isEqualTo(Order.State.CLOSED);
        assertThat(ax.find(order.closeInstance()).orElseThrow()).succeeded().hasAttempts(1);
    }
    // end::delayed[]

    // tag::retries[]
    @Test
    void flakySucceedsOnItsThirdAttempt() {
        assertThat(ax.runNow("flaky"))
                .succeeded()
                .hasAttempts(3)
                .failedWith("flaky failure on attempt 1")
                .failedWith("flaky failure on attempt 2");
    }

    @Test
    void doomedDiesAfterItsTwoRetries() {
        InstanceDetails doomed = ax.runNow("doomed");

        assertThat(doomed).died().hasAttempts(3);
        assertThat(ax.deadLetter(doomed.instance().id()).orElseThrow())
                .hasAttempts(3)
                .lastErrorContains("the downstream system is gone")
                .stackTraceContains("SampleJobs.doomed");
    }
    // end::retries[]

    // tag::workflow[]
    @Test
    void theNightlyExportsStepsFollowItsRoot() {
        InstanceDetails export = ax.runNow("export"); // the root of a workflow starts a run, as its cron at 02:00 does
        ax.awaitQuiet();

        assertThat(export).succeeded();
        String run = export.instance().id(); // a run's id is its root's
        InstanceDetails upload = ax.lastEnded("upload");
        assertThat(upload).succeeded();
        assertThat(upload.auditTrail()).anyMatch(e -> e.reason().contains(run));
        assertThat(ax.lastEnded("compress")).succeeded();
    }
    // end::workflow[]
}
