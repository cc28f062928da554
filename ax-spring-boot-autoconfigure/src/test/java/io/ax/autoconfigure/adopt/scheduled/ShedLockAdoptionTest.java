package io.ax.autoconfigure.adopt.scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.SpacedTrigger;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * ShedLock's annotations on adopted methods: the lock names the task, {@code lockAtMostFor} bounds the run,
 * {@code lockAtLeastFor} spaces the starts, {@code @EnableSchedulerLock}'s defaults apply; with ShedLock's own lock
 * provider configured, AX's run holds the lock as far as ShedLock can tell (its assertions pass) without asking the
 * provider, so the two neither deadlock nor lock twice; and without ShedLock on the class path adoption still works.
 */
class ShedLockAdoptionTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    AxAutoConfiguration.class,
                    AxScheduledAdoptionAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                    "spring.datasource.username=sa");

    static class LockedJobs {
        private final ScheduledAdoptionTest.Runs runs;

        LockedJobs(ScheduledAdoptionTest.Runs runs) {
            this.runs = runs;
        }

        @Scheduled(fixedRate = 100)
        @SchedulerLock(name = "report-lock", lockAtMostFor = "45s", lockAtLeastFor = "PT0.3S")
        public void report() {
            LockAssert.assertLocked();
            runs.ran("report");
        }

        @Scheduled(fixedRate = 100)
        @SchedulerLock(name = "${jobs.quick-lock:quick}")
        public void quick() {
            LockAssert.assertLocked();
            runs.ran("quick");
        }

        @Scheduled(fixedRate = 100)
        public void plain() {
            runs.ran("plain");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "PT20S")
    static class WithShedLocksProvider {
        @Bean
        LockProvider lockProvider(DataSource dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("CREATE TABLE shedlock (name VARCHAR(64) NOT NULL PRIMARY KEY, lock_until TIMESTAMP NOT NULL,"
                    + " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL)");
            return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                    .withJdbcTemplate(jdbc)
                    .build());
        }

        @Bean
        ScheduledAdoptionTest.Runs runs() {
            return new ScheduledAdoptionTest.Runs();
        }

        @Bean
        LockedJobs lockedJobs(ScheduledAdoptionTest.Runs runs) {
            return new LockedJobs(runs);
        }
    }

    @Test
    void lockedModeAdoptsTheLockedMethodsNamedAfterTheirLocksAndTheirRunsHoldTheLockWithoutShedLocksProvider() {
        runner.withUserConfiguration(WithShedLocksProvider.class)
                .withPropertyValues("ax.adopt.scheduled=locked")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEngine engine = context.getBean(AxEngine.class);
                    ScheduledAdoptionTest.Runs runs = context.getBean(ScheduledAdoptionTest.Runs.class);
                    assertThat(AopUtils.isAopProxy(context.getBean(LockedJobs.class)))
                            .as("ShedLock's method proxy")
                            .isTrue();
                    assertThat(engine.tasks())
                            .extracting(AxTask::name)
                            .containsExactlyInAnyOrder("report-lock", "quick");

                    AxTask report = engine.task("report-lock").orElseThrow();
                    assertThat(report.timeout()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(report.trigger())
                            .isEqualTo(new SpacedTrigger(
                                    IntervalTrigger.fixedRate(Duration.ofMillis(100), Duration.ZERO),
                                    Duration.ofMillis(300)));
                    AxTask quick = engine.task("quick").orElseThrow();
                    assertThat(quick.timeout())
                            .as("@EnableSchedulerLock's default")
                            .isEqualTo(Duration.ofSeconds(20));
                    assertThat(quick.trigger())
                            .isEqualTo(IntervalTrigger.fixedRate(Duration.ofMillis(100), Duration.ZERO));

                    await().atMost(BOUND)
                            .until(() ->
                                    runs.count("report") >= 3 && runs.count("quick") >= 3 && runs.count("plain") >= 3);
                    assertThat(runs.threads.get("plain"))
                            .as("not locked: Spring's")
                            .noneMatch(t -> t.startsWith("ax-"));
                    assertThat(runs.threads.get("report")).allMatch(t -> t.startsWith("ax-"));
                    // every run asserted its lock and succeeded; ShedLock's table was never asked
                    assertThat(engine.instancesOf("quick", 100))
                            .isNotEmpty()
                            .noneMatch(i -> i.state() == InstanceState.FAILED || i.state() == InstanceState.DEAD);
                    JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
                    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM shedlock", Integer.class))
                            .isZero();

                    List<TaskInstance> reports = engine.instancesOf("report-lock", 100).stream()
                            .sorted(Comparator.comparing(TaskInstance::scheduledTime))
                            .toList();
                    for (int i = 1; i < reports.size(); i++) {
                        assertThat(Duration.between(
                                        reports.get(i - 1).scheduledTime(),
                                        reports.get(i).scheduledTime()))
                                .as("lockAtLeastFor spaces the starts")
                                .isGreaterThanOrEqualTo(Duration.ofMillis(300));
                    }
                });
    }

    @Test
    void duringARollingSwitchTheRunsTakeShedLocksLockSoAReplicaWithoutAxAndOneWithItExcludeEachOther() {
        runner.withUserConfiguration(WithShedLocksProvider.class)
                .withPropertyValues("ax.adopt.scheduled=locked", "ax.adopt.take-shedlock-locks=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ScheduledAdoptionTest.Runs runs = context.getBean(ScheduledAdoptionTest.Runs.class);
                    JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
                    await().atMost(BOUND).until(() -> runs.count("quick") >= 2);
                    AxEngine engine = context.getBean(AxEngine.class);
                    // between two runs (a run's unlock would end any lock), a replica without AX takes the lock,
                    // as ShedLock does, for a long time
                    engine.pause("quick");
                    await().atMost(BOUND)
                            .until(() -> engine.instancesOf("quick", 100).stream()
                                    .noneMatch(i -> i.state() == InstanceState.RUNNING
                                            || i.state() == InstanceState.DISPATCHED));
                    jdbc.update("MERGE INTO shedlock KEY (name) VALUES ('quick', DATEADD('HOUR', 1, CURRENT_TIMESTAMP),"
                            + " CURRENT_TIMESTAMP, 'old-replica')");
                    int before = runs.count("quick");
                    engine.resume("quick");
                    long passed = engine.instancesOf("quick", 100).size();
                    await().atMost(BOUND)
                            .until(() -> engine.instancesOf("quick", 100).size() >= passed + 3);
                    assertThat(runs.count("quick"))
                            .as("turns passed while the old replica holds the lock")
                            .isEqualTo(before);
                    // the old replica's run ends: ShedLock's unlock
                    jdbc.update("UPDATE shedlock SET lock_until = CURRENT_TIMESTAMP WHERE name = 'quick'");
                    await().atMost(BOUND).until(() -> runs.count("quick") >= before + 3);
                });
    }

    @Test
    void takingShedLocksLocksWithoutALockProviderFailsStartUp() {
        runner.withUserConfiguration(AnnotationsOnly.class)
                .withPropertyValues("ax.adopt.scheduled=all", "ax.adopt.take-shedlock-locks=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .hasStackTraceContaining("ax.adopt.take-shedlock-locks")
                            .hasStackTraceContaining("no single ShedLock LockProvider bean");
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class AnnotationsOnly {
        @Bean
        ScheduledAdoptionTest.Runs runs() {
            return new ScheduledAdoptionTest.Runs();
        }

        @Bean
        LockedJobs lockedJobs(ScheduledAdoptionTest.Runs runs) {
            return new LockedJobs(runs);
        }
    }

    @Test
    void withoutShedLocksConfigurationTheRunsStillHoldTheLockForItsAssertions() {
        runner.withUserConfiguration(AnnotationsOnly.class)
                .withPropertyValues("ax.adopt.scheduled=all")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEngine engine = context.getBean(AxEngine.class);
                    ScheduledAdoptionTest.Runs runs = context.getBean(ScheduledAdoptionTest.Runs.class);
                    assertThat(engine.tasks())
                            .extracting(AxTask::name)
                            .containsExactlyInAnyOrder("report-lock", "quick", "LockedJobs.plain");
                    assertThat(engine.task("quick").orElseThrow().timeout())
                            .as("no lockAtMostFor anywhere: ax.adopt.timeout")
                            .isEqualTo(Duration.ofHours(1));
                    await().atMost(BOUND).until(() -> runs.count("report") >= 2 && runs.count("quick") >= 2);
                    assertThat(engine.instancesOf("report-lock", 100))
                            .noneMatch(i -> i.state() == InstanceState.FAILED || i.state() == InstanceState.DEAD);
                });
    }

    static class Plain {
        final ScheduledAdoptionTest.Runs runs = new ScheduledAdoptionTest.Runs();

        @Scheduled(fixedRate = 100)
        public void tick() {
            runs.ran("tick");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class PlainApp {
        @Bean
        Plain plain() {
            return new Plain();
        }
    }

    @Test
    void withoutShedLockOnTheClassPathAdoptionWorks() {
        runner.withClassLoader(new FilteredClassLoader("net.javacrumbs.shedlock"))
                .withUserConfiguration(PlainApp.class)
                .withPropertyValues("ax.adopt.scheduled=all")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(SchedulerLocks.class);
                    Plain plain = context.getBean(Plain.class);
                    await().atMost(BOUND).until(() -> plain.runs.count("tick") >= 2);
                    assertThat(plain.runs.threads.get("tick")).allMatch(t -> t.startsWith("ax-"));
                });
    }

    static class SharedLock {
        @Scheduled(fixedRate = 1000)
        @SchedulerLock(name = "nightly")
        public void one() {}

        @Scheduled(fixedRate = 1000)
        @SchedulerLock(name = "nightly")
        public void two() {}
    }

    @Test
    void oneLockNameOnTwoMethodsFailsStartUpNamingBoth() {
        runner.withUserConfiguration(ScheduledAdoptionTest.EnableSchedulingOnly.class)
                .withBean(SharedLock.class)
                .withPropertyValues("ax.adopt.scheduled=locked")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(org.springframework.core.NestedExceptionUtils.getMostSpecificCause(
                                    context.getStartupFailure()))
                            .hasMessageContaining(
                                    "the lock name 'nightly' is also on @Scheduled on " + SharedLock.class.getName());
                });
    }
}
