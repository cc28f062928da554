package io.ax.docs.migrating;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.InstanceState;
import io.ax.testing.AxTestAutoConfiguration;
import io.ax.testing.AxTestClock;
import io.ax.testing.AxTester;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The migration guide's examples, before and after: the db-scheduler tasks run on db-scheduler's own manual scheduler
 * (its test helper, on a clock the test sets, over an embedded database), the AX jobs on AX's test kit, both from the
 * same instant, and each scenario makes the same calls at the same times on both.
 */
class DbSchedulerMigrationTest {

    /** A Wednesday, 06:25 in Berlin: five minutes before the report's cron fires. */
    private static final Instant START = Instant.parse("2026-12-02T05:25:00Z");

    @Test
    void theRecurringTasksFireAtTheSameTimes() {
        List<String> expected = List.of(
                "purge at 2026-12-02T05:25:00Z",
                "purge at 2026-12-02T05:30:00Z",
                "report for 2026-12-02T05:30:00Z at 2026-12-02T05:30:00Z",
                "purge at 2026-12-02T05:35:00Z");

        List<String> before = onDbScheduler(0, db -> db.advance(Duration.ofMinutes(11)));
        List<String> after = onAx(0, ax -> ax.tester().advance(Duration.ofMinutes(11)));

        assertThat(before).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(after).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void theOneTimeTaskRunsOnceAtItsTimeWithItsData() {
        List<String> before = onDbScheduler(0, db -> {
            db.checkout().orderOpened(42);
            db.advance(Duration.ofMinutes(1));
            db.checkout().orderOpened(42); // the same instance id: nothing changes
            db.advance(Duration.ofMinutes(28));
            assertThat(db.calls()).noneMatch(call -> call.startsWith("close"));
            db.advance(Duration.ofMinutes(2));
        });
        List<String> after = onAx(0, ax -> {
            String close = ax.checkout().orderOpened(42);
            ax.tester().advance(Duration.ofMinutes(1));
            assertThat(ax.checkout().orderOpened(42)).isEqualTo(close);
            ax.tester().advance(Duration.ofMinutes(28));
            assertThat(ax.calls()).noneMatch(call -> call.startsWith("close"));
            ax.tester().advance(Duration.ofMinutes(2));
            assertThat(ax.tester().find(close).orElseThrow().instance().state()).isEqualTo(InstanceState.SUCCESS);
        });

        assertThat(closes(before)).containsExactly("close 42 at 2026-12-02T05:55:00Z");
        assertThat(closes(after)).isEqualTo(closes(before));
    }

    @Test
    void aPaidOrderIsNeverClosed() {
        List<String> before = onDbScheduler(0, db -> {
            db.checkout().orderOpened(1);
            db.checkout().orderOpened(2);
            db.checkout().orderPaid(1);
            db.advance(Duration.ofMinutes(31));
            db.checkout().orderPaid(2); // too late: its close is over, and nothing happens
        });
        List<String> after = onAx(0, ax -> {
            ax.checkout().orderOpened(1);
            ax.checkout().orderOpened(2);
            assertThat(ax.checkout().orderPaid(1)).isTrue();
            ax.tester().advance(Duration.ofMinutes(31));
            assertThat(ax.checkout().orderPaid(2)).isFalse();
        });

        assertThat(closes(before)).containsExactly("close 2 at 2026-12-02T05:55:00Z");
        assertThat(closes(after)).isEqualTo(closes(before));
    }

    @Test
    void aFailingCloseIsRetriedAfterOneSecondThenTwo() {
        List<String> before = onDbScheduler(2, db -> {
            db.checkout().orderOpened(7);
            db.advance(Duration.ofMinutes(31));
        });
        List<String> after = onAx(2, ax -> {
            ax.checkout().orderOpened(7);
            ax.tester().advance(Duration.ofMinutes(31));
        });

        assertThat(closes(before))
                .containsExactly(
                        "close 7 at 2026-12-02T05:55:00Z (failed)",
                        "close 7 at 2026-12-02T05:55:01Z (failed)",
                        "close 7 at 2026-12-02T05:55:03Z");
        assertThat(closes(after)).isEqualTo(closes(before));
    }

    @Test
    void aCloseThatAlwaysFailsStopsAfterSixAttemptsAndOnAxLeavesADeadLetter() {
        List<String> before = onDbScheduler(Integer.MAX_VALUE, db -> {
            db.checkout().orderOpened(9);
            db.advance(Duration.ofMinutes(32));
            assertThat(db.scheduler().getScheduledExecutionsForTask("close-unpaid-order"))
                    .isEmpty(); // stopped: the row is gone
        });
        List<String> after = onAx(Integer.MAX_VALUE, ax -> {
            String close = ax.checkout().orderOpened(9);
            ax.tester().advance(Duration.ofMinutes(32));
            assertThat(ax.tester().deadLetter(close))
                    .hasValueSatisfying(letter -> assertThat(letter.attempts()).hasSize(6));
        });

        // the waits between the six attempts: 1 s, 2 s, 4 s, 8 s, 16 s
        assertThat(closes(before))
                .containsExactly(
                        "close 9 at 2026-12-02T05:55:00Z (failed)",
                        "close 9 at 2026-12-02T05:55:01Z (failed)",
                        "close 9 at 2026-12-02T05:55:03Z (failed)",
                        "close 9 at 2026-12-02T05:55:07Z (failed)",
                        "close 9 at 2026-12-02T05:55:15Z (failed)",
                        "close 9 at 2026-12-02T05:55:31Z (failed)");
        assertThat(closes(after)).isEqualTo(closes(before));
    }

    private static List<String> closes(List<String> calls) {
        return calls.stream().filter(call -> call.startsWith("close")).toList();
    }

    /**
     * What the examples' collaborators were asked to do, each call with the time of the scheduler's clock; the shop
     * fails its first {@code failures} closes.
     */
    static final class Calls implements Sessions, Reports, Shop {

        private final InstantSource clock;
        private final AtomicInteger failuresLeft;
        private final List<String> calls = new CopyOnWriteArrayList<>();

        Calls(InstantSource clock, int failures) {
            this.clock = clock;
            this.failuresLeft = new AtomicInteger(failures);
        }

        @Override
        public void purgeExpired() {
            calls.add("purge at " + clock.instant());
        }

        @Override
        public void build(Instant scheduledFor) {
            calls.add("report for " + scheduledFor + " at " + clock.instant());
        }

        @Override
        public void closeIfStillOpen(long orderId) {
            String call = "close " + orderId + " at " + clock.instant();
            if (failuresLeft.getAndUpdate(n -> Math.max(n - 1, 0)) > 0) {
                calls.add(call + " (failed)");
                throw new IllegalStateException("the shop is down");
            }
            calls.add(call);
        }

        List<String> list() {
            return List.copyOf(calls);
        }
    }

    /** The "before" at work: db-scheduler's manual scheduler, which runs due executions when the test says so. */
    record OnDbScheduler(ManualScheduler scheduler, DbSchedulerCheckout checkout, Calls recorder) {

        /** Moves the clock second by second, running what falls due at each, as a polling scheduler would. */
        void advance(Duration duration) {
            scheduler.runAnyDueExecutions();
            for (long s = 0; s < duration.toSeconds(); s++) {
                scheduler.tick(Duration.ofSeconds(1));
                scheduler.runAnyDueExecutions();
            }
        }

        List<String> calls() {
            return recorder.list();
        }
    }

    private static List<String> onDbScheduler(int failures, Consumer<OnDbScheduler> scenario) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:db-scheduler-" + UUID.randomUUID());
        try (Connection keepAlive = dataSource.getConnection()) { // the in-memory database lives as long as this
            createScheduledTasks(keepAlive);
            SettableClock clock = new SettableClock();
            clock.set(START);
            Calls calls = new Calls(clock::now, failures);
            DbSchedulerTasks tasks = new DbSchedulerTasks();
            List<Task<?>> known = List.of(tasks.closeUnpaidOrder(calls));
            ManualScheduler scheduler = TestHelper.createManualScheduler(dataSource, known)
                    .clock(clock)
                    .startTasks(List.of(tasks.purgeSessions(calls), tasks.dailyReport(calls)))
                    .start(); // schedules the recurring tasks, as the starter does at start-up
            scenario.accept(new OnDbScheduler(scheduler, new DbSchedulerCheckout(scheduler, clock::now), calls));
            return calls.list();
        } catch (SQLException e) {
            throw new IllegalStateException("the embedded database for db-scheduler failed", e);
        }
    }

    /** db-scheduler's table, as its documentation gives it for HSQLDB, in H2's types. */
    private static void createScheduledTasks(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE scheduled_tasks ("
                    + " task_name VARCHAR(100) NOT NULL, task_instance VARCHAR(100) NOT NULL, task_data BLOB,"
                    + " execution_time TIMESTAMP WITH TIME ZONE NOT NULL, picked BOOLEAN NOT NULL,"
                    + " picked_by VARCHAR(50), last_success TIMESTAMP WITH TIME ZONE,"
                    + " last_failure TIMESTAMP WITH TIME ZONE, consecutive_failures INT,"
                    + " last_heartbeat TIMESTAMP WITH TIME ZONE, version BIGINT NOT NULL, priority SMALLINT,"
                    + " PRIMARY KEY (task_name, task_instance))");
        }
    }

    /** The "after" at work: AX's engine on the test kit's clock. */
    record OnAx(AxTester tester, MigratedCheckout checkout, Calls recorder) {

        List<String> calls() {
            return recorder.list();
        }
    }

    /** The "after" as an application: the AX jobs and checkout, their collaborators on the engine's clock. */
    @Configuration(proxyBeanMethods = false)
    @Import({MigratedJobs.class, MigratedCheckout.class})
    static class MigratedApplication {

        @Bean
        Calls calls(AxTestClock clock, @Value("${migrating.failures}") int failures) {
            return new Calls(clock::instant, failures);
        }
    }

    private static List<String> onAx(int failures, Consumer<OnAx> scenario) {
        List<String> calls = new ArrayList<>();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        JacksonAutoConfiguration.class, AxTestAutoConfiguration.class, AxAutoConfiguration.class))
                .withUserConfiguration(MigratedApplication.class)
                .withPropertyValues(
                        "ax.strict-properties=true",
                        "ax.test.start=" + START,
                        // as in the jobs guide's test: the in-memory store's work stays loaded and owned for as far
                        // as a test moves the clock
                        "ax.prefetch.window=3650d",
                        "ax.cluster.lease=3650d",
                        "ax.cluster.ack-timeout=3649d",
                        "migrating.failures=" + failures)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Calls recorder = context.getBean(Calls.class);
                    scenario.accept(new OnAx(
                            context.getBean(AxTester.class), context.getBean(MigratedCheckout.class), recorder));
                    calls.addAll(recorder.list());
                });
        return calls;
    }
}
