package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxScheduler;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.store.ActivityRow;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.InstanceStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/** Every read and write of the {@code ax} endpoint, over HTTP, on a JDBC store (embedded H2). */
@SpringBootTest(
        classes = AxEndpointWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=ax,health",
            "management.endpoint.ax.access=unrestricted",
            "ax.node-id=ops-node",
            "spring.datasource.url=jdbc:h2:mem:ax-endpoint-web;DB_CLOSE_DELAY=-1"
        })
class AxEndpointWebTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    InstanceStore store;

    @Autowired
    Jobs jobs;

    @Autowired
    AxScheduler scheduler;

    private Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @AfterAll
    static void releaseBusyJob() {
        Jobs.RELEASE.countDown();
    }

    @Test
    void theOverviewNamesTheNodeItsRoleTheLeaderAndTheEngine() {
        Http.Answer answer = http.get("/actuator/ax");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.node")).isEqualTo("ops-node");
        assertThat(answer.<String>read("$.storeKind")).isEqualTo("jdbc");
        assertThat(answer.<String>read("$.store")).isEqualTo("jdbc (H2 at jdbc:h2:mem:ax-endpoint-web)");
        assertThat(answer.<String>read("$.role")).isEqualTo("leader");
        assertThat(answer.<String>read("$.leader")).isEqualTo("ops-node");
        assertThat(answer.<Integer>read("$.epoch")).as("its first lease").isEqualTo(1);
        assertThat(answer.<List<String>>read("$.liveNodes")).containsExactly("ops-node");
        assertThat(answer.<Boolean>read("$.running")).isTrue();
        assertThat(answer.<Map<String, Integer>>read("$.backlog")).isNotNull();
        assertThat(answer.<Integer>read("$.oldestBacklogAgeMillis")).isNotNegative();
        assertThat(answer.<Map<String, Integer>>read("$.backlogByPriority")).isNotNull();
        assertThat(answer.<Integer>read("$.wheelEntries")).isNotNegative();
        assertThat(answer.<Integer>read("$.executing")).isNotNegative();
        assertThat(answer.<String>read("$.clock.status")).isEqualTo("ok");
        assertThat(answer.<Integer>read("$.clock.jumps")).isZero();
        assertThat(answer.<Integer>read("$.deadLetters")).isNotNegative();
        assertThat(answer.<Integer>read("$.tasks")).isEqualTo(8);
        assertThat(answer.<Integer>read("$.partitions.count")).isEqualTo(256);
        assertThat(answer.<Integer>read("$.partitions.owned"))
                .as("a node alone owns them all")
                .isEqualTo(256);
        assertThat(answer.<String>read("$.partitions.ownedRanges")).isEqualTo("0-255");
        assertThat(answer.<Boolean>read("$.partitions.deciding")).isTrue();
        assertThat(answer.<Map<String, Integer>>read("$.partitions.perNode"))
                .containsExactly(Map.entry("ops-node", 256));
    }

    @Test
    void theTaskListShowsTriggersZonesAndTheNextFiveFireTimes() {
        Http.Answer answer = http.get("/actuator/ax/tasks");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<List<String>>read("$.tasks[*].name"))
                .containsExactly(
                        "busy",
                        "configured",
                        "doomed",
                        "handler",
                        "report",
                        "waiting",
                        "workflow-root",
                        "workflow-step");
        assertThat(answer.<String>read("$.tasks[4].trigger")).isEqualTo("cron '0 0 3 * * ?' in Europe/Berlin");
        assertThat(answer.<String>read("$.tasks[4].triggerInWords")).isEqualTo("at 03:00 every day, Europe/Berlin");
        assertThat(answer.<String>read("$.tasks[4].zone")).isEqualTo("Europe/Berlin");
        assertThat(answer.<Boolean>read("$.tasks[4].paused")).isFalse();
        List<String> next = answer.read("$.tasks[4].nextFireTimes");
        assertThat(next)
                .hasSize(5)
                .allSatisfy(t -> assertThat(Instant.parse(t)
                                .atZone(ZoneId.of("Europe/Berlin"))
                                .getHour())
                        .isEqualTo(3));
        assertThat(answer.<String>read("$.tasks[4].lastInstances[0].state")).isEqualTo("SCHEDULED");
        assertThat(answer.<List<String>>read("$.tasks[3].nextFireTimes"))
                .as("on demand")
                .isEmpty();
    }

    @Test
    void aTaskShowsItsNewestInstancesWithDurationAndItsCounts() {
        String id = http.post("/actuator/ax/tasks/handler/trigger").read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        Http.Answer answer = http.get("/actuator/ax/tasks/handler");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.name")).isEqualTo("handler");
        assertThat(answer.<String>read("$.trigger")).isEqualTo("on demand");
        assertThat(answer.<String>read("$.triggerInWords")).isEqualTo("only when triggered");
        assertThat(answer.<Integer>read("$.priority")).isEqualTo(7);
        assertThat(answer.<Boolean>read("$.transactional")).isFalse();
        assertThat(answer.<String>read("$.lastInstances[0].id")).isEqualTo(id);
        assertThat(answer.<String>read("$.lastInstances[0].state")).isEqualTo("SUCCESS");
        assertThat(answer.<Integer>read("$.lastInstances[0].attempt")).isEqualTo(1);
        assertThat(answer.<Integer>read("$.lastInstances[0].durationMillis")).isNotNegative();
        assertThat(answer.<Integer>read("$.successes"))
                .as("this node's freshest counts, as the task's charts have them")
                .isPositive();
        assertThat(answer.<Integer>read("$.failures")).isZero();
        assertThat(answer.<String>read("$.outcomesScope")).isEqualTo("cluster");
    }

    @Test
    void aTasksSuccessesAndFailuresAreEveryNodesOverTheLastDay() {
        Instant minute = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        String writer = "w-" + java.util.UUID.randomUUID();
        ActivityStore activity = store.activity().orElseThrow();
        activity.save(List.of(
                new ActivityRow(minute, "configured", "other-node", writer, 40, 30, 6, 4, 2, "3:40"),
                new ActivityRow(
                        minute.minus(Duration.ofHours(23)), "configured", "other-node", writer, 9, 9, 0, 0, 0, ""),
                new ActivityRow(
                        minute.minus(Duration.ofHours(25)),
                        "configured",
                        "other-node",
                        writer,
                        500,
                        0,
                        500,
                        0,
                        500,
                        ""),
                new ActivityRow(minute, "report", "other-node", writer, 70, 0, 70, 0, 70, "3:70")));
        try {
            Http.Answer all = http.get("/actuator/ax/tasks");
            Http.Answer one = http.get("/actuator/ax/tasks/configured");

            // the other node's minutes of now and 23 hours ago, not of 25 hours ago; timeouts are failures
            assertThat(all.<String>read("$.tasks[1].name")).isEqualTo("configured");
            assertOutcomesOfTheCluster(all, "$.tasks[1].", 39, 10, 2);
            assertOutcomesOfTheCluster(one, "$.", 39, 10, 2);
        } finally {
            activity.deleteBefore(Instant.now().plus(Duration.ofDays(1)), 10_000);
        }
    }

    @Test
    void aTaskThatNothingRanShowsNoOutcomes() {
        Http.Answer all = http.get("/actuator/ax/tasks");
        Http.Answer one = http.get("/actuator/ax/tasks/configured");

        assertThat(all.<String>read("$.tasks[1].name")).isEqualTo("configured");
        assertOutcomesOfTheCluster(all, "$.tasks[1].", 0, 0, 0);
        assertOutcomesOfTheCluster(one, "$.", 0, 0, 0);
    }

    /** The successes, failures and dead letters of the task at {@code at}, every node's over the last day. */
    private static void assertOutcomesOfTheCluster(
            Http.Answer answer, String at, int successes, int failures, int deadLetters) {
        assertThat(answer.<String>read(at + "outcomesScope")).isEqualTo("cluster");
        assertThat(answer.<String>read(at + "outcomesUnavailable")).isNull();
        assertThat(List.of(
                        answer.<Integer>read(at + "successes"),
                        answer.<Integer>read(at + "failures"),
                        answer.<Integer>read(at + "deadLetters")))
                .as("successes, failures, dead letters")
                .containsExactly(successes, failures, deadLetters);
    }

    @Test
    void anInstanceShowsItsStateAndFullAuditTrail() {
        String id = http.post("/actuator/ax/tasks/handler/trigger").read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        Http.Answer answer = http.get("/actuator/ax/instances/" + id);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.task")).isEqualTo("handler");
        assertThat(answer.<String>read("$.state")).isEqualTo("SUCCESS");
        assertThat(answer.<String>read("$.node")).isEqualTo("ops-node");
        assertThat(answer.<String>read("$.origin")).isEqualTo("ON_DEMAND");
        assertThat(answer.<List<String>>read("$.audit[*].to"))
                .containsExactly("CREATED", "SCHEDULED", "RUNNING", "SUCCESS");
        assertThat(answer.<String>read("$.audit[0].from")).isNull();
        assertThat(answer.<String>read("$.audit[3].from")).isEqualTo("RUNNING");
        assertThat(answer.<String>read("$.audit[1].reason")).startsWith("due at");
    }

    @Test
    void aTakeoverIsMarkedInTheTrailAndItsAttemptIsTakenOverNotFailed() {
        // written as a node that died left it, and ended DEAD: the engine has nothing left to do with it
        // of a task this node does not know, an hour ago: no other test's task shows it among its instances
        Instant at = Instant.now().minus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        String id = java.util.UUID.randomUUID().toString();
        assertThat(store.schedule(List.of(new io.ax.core.store.NewFire(
                        new TaskInstance(
                                id,
                                "left-by-a-dead-node",
                                at,
                                InstanceState.SCHEDULED,
                                0,
                                "gone",
                                at,
                                io.ax.core.InstanceOrigin.ON_DEMAND,
                                null),
                        "seeded"))))
                .containsExactly(true);
        Instant now = Instant.now();
        for (io.ax.core.Transition t : List.of(
                new io.ax.core.Transition(id, InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "gone", now, ""),
                new io.ax.core.Transition(
                        id,
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        1,
                        "ops-node",
                        now,
                        io.ax.core.AuditEntry.TAKEOVER + "node gone stopped heartbeating while it ran attempt 1"),
                new io.ax.core.Transition(
                        id, InstanceState.FAILED, InstanceState.DEAD, 1, "ops-node", now, "takeovers used up"))) {
            assertThat(store.transition(t)).isTrue();
        }

        Http.Answer answer = http.get("/actuator/ax/instances/" + id);

        assertThat(answer.<List<Boolean>>read("$.audit[*].takeover")).containsExactly(false, false, false, true, false);
        assertThat(answer.<String>read("$.attempts[0].outcome")).isEqualTo("TAKEN_OVER");
    }

    @Test
    void theOverviewSectionCountsTheLastHourMinuteByMinute() {
        String id = http.post("/actuator/ax/tasks/handler/trigger").read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        Http.Answer answer = http.get("/actuator/ax/overview");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.node")).isEqualTo("ops-node");
        assertThat(answer.<String>read("$.scope")).isEqualTo("cluster");
        assertThat(answer.<String>read("$.window")).isEqualTo("hour");
        assertThat(answer.<Integer>read("$.bucketMinutes")).isEqualTo(1);
        List<String> starts = answer.read("$.buckets[*].start");
        assertThat(starts).hasSize(60);
        assertThat(Instant.parse(starts.get(59)))
                .isBefore(Instant.now())
                .isAfter(Instant.now().minusSeconds(120));
        assertThat(Duration.between(Instant.parse(starts.get(0)), Instant.parse(starts.get(59))))
                .isEqualTo(Duration.ofMinutes(59));
        assertThat(sum(answer, "$.buckets[*].fires")).isPositive();
        assertThat(sum(answer, "$.buckets[*].successes")).isPositive();
        assertThat(answer.<Integer>read("$.latenessP50Millis")).isNotNegative();
        assertThat(answer.<Integer>read("$.latenessP99Millis"))
                .isGreaterThanOrEqualTo(answer.<Integer>read("$.latenessP50Millis"));
    }

    @Test
    void theOverviewAddsUpWhatEveryNodeWroteForAllTasksOrOne() {
        Instant minute = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        String writer = "w-" + java.util.UUID.randomUUID();
        ActivityStore activity = store.activity().orElseThrow();
        activity.save(List.of(
                new ActivityRow(minute, "handler", "other-node", writer, 9_000, 9_000, 9_000, 9_000, 9_000, "3:9000"),
                new ActivityRow(
                        minute,
                        ActivityRow.ALL_TASKS,
                        "other-node",
                        writer,
                        9_000,
                        9_000,
                        9_000,
                        9_000,
                        9_000,
                        "3:9000")));
        try {
            Http.Answer all = http.get("/actuator/ax/overview");
            Http.Answer one = http.get("/actuator/ax/overview?task=handler");
            Http.Answer other = http.get("/actuator/ax/overview?task=waiting");

            // far more than this node runs in the test: the other node's rows are in the sums
            for (String column : List.of("fires", "successes", "failures", "timeouts", "deadLetters")) {
                assertThat(sum(all, "$.buckets[*]." + column)).as(column).isGreaterThanOrEqualTo(9_000);
                assertThat(sum(one, "$.buckets[*]." + column)).as(column).isGreaterThanOrEqualTo(9_000);
                assertThat(sum(other, "$.buckets[*]." + column))
                        .as("another task's " + column)
                        .isLessThan(9_000);
            }
            assertThat(one.<String>read("$.task")).isEqualTo("handler");
        } finally {
            activity.deleteBefore(Instant.now().plus(Duration.ofDays(1)), 10_000);
        }
    }

    @Test
    void theOverviewOfADayHasTenMinuteBuckets() {
        Http.Answer day = http.get("/actuator/ax/overview?window=day");

        assertThat(day.status()).isEqualTo(200);
        assertThat(day.<Integer>read("$.bucketMinutes")).isEqualTo(10);
        List<String> starts = day.read("$.buckets[*].start");
        assertThat(starts).hasSize(144);
        assertThat(Duration.between(Instant.parse(starts.get(0)), Instant.parse(starts.get(143))))
                .isEqualTo(Duration.ofMinutes(1430));
    }

    @Test
    void theOverviewOfOneTaskOverADayCountsThatTaskAloneInTenMinuteBuckets() {
        Instant threeHoursAgo =
                Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES).minus(Duration.ofHours(3));
        String writer = "w-" + java.util.UUID.randomUUID();
        ActivityStore activity = store.activity().orElseThrow();
        activity.save(List.of(
                new ActivityRow(threeHoursAgo, "handler", "other-node", writer, 5_000, 5_000, 0, 0, 0, "3:5000"),
                new ActivityRow(threeHoursAgo, "waiting", "other-node", writer, 70_000, 0, 70_000, 0, 0, "3:70000")));
        try {
            Http.Answer day = http.get("/actuator/ax/overview?task=handler&window=day");
            Http.Answer hour = http.get("/actuator/ax/overview?task=handler");
            Http.Answer unknown = http.get("/actuator/ax/overview?task=nope&window=day");

            assertThat(day.status()).isEqualTo(200);
            assertThat(day.<String>read("$.task")).isEqualTo("handler");
            assertThat(day.<String>read("$.window")).isEqualTo("day");
            assertThat(day.<Integer>read("$.bucketMinutes")).isEqualTo(10);
            List<String> starts = day.read("$.buckets[*].start");
            assertThat(starts).hasSize(144);
            int at = 0;
            for (int i = 0; i < starts.size(); i++) {
                if (!Instant.parse(starts.get(i)).isAfter(threeHoursAgo)) {
                    at = i;
                }
            }
            assertThat(day.<Integer>read("$.buckets[" + at + "].fires"))
                    .as("the ten minutes that hold the other node's minute of handler, three hours ago")
                    .isBetween(5_000, 5_999);
            assertThat(sum(day, "$.buckets[*].fires"))
                    .as("handler's fires, without the other task's")
                    .isBetween(5_000, 69_999);
            assertThat(sum(day, "$.buckets[*].failures"))
                    .as("handler never fails: the other task's failures are not counted")
                    .isZero();
            assertThat(sum(hour, "$.buckets[*].fires"))
                    .as("three hours ago is outside the last hour")
                    .isLessThan(5_000);
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.<String>read("$.message")).isEqualTo("Unknown task 'nope'");
        } finally {
            activity.deleteBefore(Instant.now().plus(Duration.ofDays(1)), 10_000);
        }
    }

    @Test
    void anOverviewOfAnUnknownTaskOrWindowIsRefusedWithAMessage() {
        Http.Answer task = http.get("/actuator/ax/overview?task=nope");
        Http.Answer window = http.get("/actuator/ax/overview?window=week");

        assertThat(task.status()).isEqualTo(404);
        assertThat(task.<String>read("$.message")).contains("nope");
        assertThat(window.status()).isEqualTo(400);
        assertThat(window.<String>read("$.message")).isEqualTo("window must be hour or day, was 'week'");
    }

    private static int sum(Http.Answer answer, String path) {
        return answer.<List<Integer>>read(path).stream()
                .mapToInt(Integer::intValue)
                .sum();
    }

    @Test
    void anInstanceShowsTheStartOfItsPayload() {
        String small = scheduler.schedule(
                ScheduleRequest.of("waiting").after(Duration.ofHours(1)).payload("<script>alert(1)</script>"));
        String large = scheduler.schedule(
                ScheduleRequest.of("waiting").after(Duration.ofHours(1)).payload("x".repeat(5_000)));
        String none = scheduler.schedule(
                ScheduleRequest.of("waiting").after(Duration.ofHours(1)).priority(-3));
        try {
            Http.Answer shown = http.get("/actuator/ax/instances/" + small);
            assertThat(shown.<String>read("$.payload.text")).isEqualTo("<script>alert(1)</script>");
            assertThat(shown.<Integer>read("$.payload.bytes")).isEqualTo(25);
            assertThat(shown.<Boolean>read("$.payload.truncated")).isFalse();

            Http.Answer cut = http.get("/actuator/ax/instances/" + large);
            assertThat(cut.<String>read("$.payload.text")).hasSize(4096);
            assertThat(cut.<Integer>read("$.payload.bytes")).isEqualTo(5_000);
            assertThat(cut.<Boolean>read("$.payload.truncated")).isTrue();

            assertThat(http.get("/actuator/ax/instances/" + none).<Object>read("$.payload"))
                    .isNull();
            assertThat(http.get("/actuator/ax/instances/" + none).<Integer>read("$.priority"))
                    .as("the request's own priority")
                    .isEqualTo(-3);
            assertThat(shown.<Object>read("$.priority")).as("the task's").isNull();
        } finally {
            List.of(small, large, none).forEach(scheduler::cancel);
        }
    }

    @Test
    void deadLettersArePagedNewestFirstWithTheLastError() {
        String older = deadInstance();
        String newer = deadInstance();

        Http.Answer answer = http.get("/actuator/ax/dead-letters?page=0&size=2");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<Integer>read("$.page")).isZero();
        assertThat(answer.<Integer>read("$.size")).isEqualTo(2);
        assertThat(answer.<Integer>read("$.total")).isGreaterThanOrEqualTo(2);
        assertThat(answer.<List<String>>read("$.deadLetters[*].instanceId")).containsExactly(newer, older);
        assertThat(answer.<String>read("$.deadLetters[0].task")).isEqualTo("doomed");
        assertThat(answer.<Integer>read("$.deadLetters[0].attempts")).isEqualTo(2);
        assertThat(answer.<String>read("$.deadLetters[0].lastError"))
                .isEqualTo("java.lang.IllegalStateException: the downstream system is gone");
        assertThat(answer.<List<String>>read("$.deadLetters[0].errors[*].outcome"))
                .containsExactly("FAILED", "FAILED");
        Http.Answer second = http.get("/actuator/ax/dead-letters?page=1&size=1");
        assertThat(second.<List<String>>read("$.deadLetters[*].instanceId")).containsExactly(older);
        assertThat(http.get("/actuator/ax/dead-letters?size=0").status()).isEqualTo(400);
    }

    @Test
    void aDeadInstanceShowsEachAttemptAndItsDeadLetterButNotTheStackTraceToAnAnonymousCaller() {
        String id = deadInstance();

        Http.Answer answer = http.get("/actuator/ax/instances/" + id);

        assertThat(answer.<List<Integer>>read("$.attempts[*].attempt")).containsExactly(1, 2);
        assertThat(answer.<List<String>>read("$.attempts[*].outcome")).containsExactly("FAILED", "FAILED");
        assertThat(answer.<List<String>>read("$.attempts[*].node")).containsOnly("ops-node");
        assertThat(answer.<List<String>>read("$.attempts[*].error"))
                .allMatch(e -> e.contains("the downstream system is gone"));
        assertThat(answer.<List<Integer>>read("$.attempts[*].durationMillis")).allMatch(ms -> ms >= 0);
        assertThat(answer.<String>read("$.deadLetter.lastError"))
                .isEqualTo("java.lang.IllegalStateException: the downstream system is gone");
        assertThat(answer.<String>read("$.deadLetter.stackTrace"))
                .as("anonymous: no stack trace")
                .isNull();
        assertThat(answer.<String>read("$.deadLetter.stackTraceRole")).isEqualTo("OPERATOR");
        assertThat(answer.<String>read("$.runId"))
                .as("doomed is in no workflow")
                .isNull();
    }

    @Test
    void aWorkflowStepNamesItsRunWhichTheWorkflowsListShows() {
        String run = http.post("/actuator/ax/tasks/workflow-root/trigger").read("$.instanceId");
        String step = await().atMost(BOUND)
                .until(
                        () -> store.findByKey("workflow-step", TaskInstance.runKey(run))
                                .filter(i -> i.state() == InstanceState.SUCCESS)
                                .map(TaskInstance::id),
                        java.util.Optional::isPresent)
                .orElseThrow();

        Http.Answer answer = http.get("/actuator/ax/instances/" + step);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.task")).isEqualTo("workflow-step");
        assertThat(answer.<String>read("$.runId")).as("the run it is a step of").isEqualTo(run);
        assertThat(http.get("/actuator/ax/instances/" + run).<String>read("$.runId"))
                .as("a root's run is its own id")
                .isEqualTo(run);
        assertThat(http.get("/actuator/ax/workflows")
                        .<List<String>>read("$.workflows[?(@.root == 'workflow-root')].runs[*].runId"))
                .contains(run);
    }

    @Test
    void triggeringATaskNowStartsAnInstance() {
        Http.Answer answer = http.post("/actuator/ax/tasks/handler/trigger");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.task")).isEqualTo("handler");
        String id = answer.read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(store.auditTrail(id).get(0).reason())
                .as("who asked, though nobody logged in")
                .isEqualTo("triggered on demand by operator 'anonymous' from 127.0.0.1");
    }

    @Test
    void aTaskIsPausedAndResumed() {
        Http.Answer paused = http.post("/actuator/ax/tasks/report/pause");
        assertThat(paused.status()).isEqualTo(200);
        assertThat(paused.<Boolean>read("$.paused")).isTrue();
        assertThat(http.get("/actuator/ax/tasks/report").<Boolean>read("$.paused"))
                .isTrue();
        assertThat(http.get("/actuator/ax/tasks/report").<List<String>>read("$.nextFireTimes"))
                .as("a paused task fires nothing")
                .isEmpty();
        assertThat(store.findTask("report").orElseThrow().paused()).isTrue();

        Http.Answer resumed = http.post("/actuator/ax/tasks/report/resume");
        assertThat(resumed.status()).isEqualTo(200);
        assertThat(resumed.<Boolean>read("$.paused")).isFalse();
        assertThat(http.get("/actuator/ax/tasks/report").<Boolean>read("$.paused"))
                .isFalse();
        assertThat(http.get("/actuator/ax/tasks/report").<List<String>>read("$.nextFireTimes"))
                .isNotEmpty();
    }

    @Test
    void anInstanceWaitingForItsRetryIsCancelled() {
        String id = http.post("/actuator/ax/tasks/waiting/trigger").read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.RETRYING);

        Http.Answer answer = http.delete("/actuator/ax/instances/" + id);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.state")).isEqualTo("CANCELLED");
        List<String> reasons = answer.read("$.audit[*].reason");
        assertThat(reasons).last().isEqualTo("cancelled by operator 'anonymous' from 127.0.0.1");
        assertThat(state(id)).isEqualTo(InstanceState.CANCELLED);
    }

    @Test
    void anInstanceIsCancelledByPostToo() {
        String id = http.post("/actuator/ax/tasks/waiting/trigger").read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.RETRYING);

        Http.Answer answer = http.post("/actuator/ax/instances/" + id + "/cancel");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<String>read("$.state")).isEqualTo("CANCELLED");
    }

    @Test
    void aRunningInstanceCannotBeCancelled() {
        String id = http.post("/actuator/ax/tasks/busy/trigger").read("$.instanceId");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.RUNNING);

        Http.Answer answer = http.delete("/actuator/ax/instances/" + id);

        assertThat(answer.status()).isEqualTo(409);
        assertThat(answer.<String>read("$.error")).isEqualTo("Conflict");
        assertThat(answer.<String>read("$.message")).contains("RUNNING -> CANCELLED");
    }

    @Test
    void aDeadLetterIsReplayedAsANewCycleOfTheSameInstance() {
        String id = deadInstance();
        jobs.healed.set(true);
        try {
            Http.Answer answer = http.post("/actuator/ax/dead-letters/" + id + "/replay");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.<String>read("$.id")).isEqualTo(id);
            assertThat(answer.<String>read("$.state")).isEqualTo("RETRYING");
            await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
            Http.Answer instance = http.get("/actuator/ax/instances/" + id);
            assertThat(instance.<List<String>>read("$.audit[?(@.from == 'DEAD')].reason"))
                    .singleElement()
                    .asString()
                    .startsWith("replayed by operator 'anonymous' from 127.0.0.1");
            assertThat(http.get("/actuator/ax/dead-letters?size=200").<List<String>>read("$.deadLetters[*].instanceId"))
                    .doesNotContain(id);
            assertThat(http.post("/actuator/ax/dead-letters/" + id + "/replay").status())
                    .as("only the dead can be replayed")
                    .isEqualTo(409);
        } finally {
            jobs.healed.set(false);
        }
    }

    @Test
    void everyDeadLetterOfATaskIsReplayedInOneCall() {
        String first = deadInstance();
        String second = deadInstance();
        jobs.healed.set(true);
        try {
            Http.Answer answer = http.post("/actuator/ax/tasks/doomed/replay-dead-letters");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.<String>read("$.task")).isEqualTo("doomed");
            assertThat(answer.<List<String>>read("$.replayed")).contains(first, second);
            assertThat(answer.<Boolean>read("$.more")).isFalse();
            await().atMost(BOUND)
                    .until(() -> state(first) == InstanceState.SUCCESS && state(second) == InstanceState.SUCCESS);
            assertThat(store.deadLetters(0, 200)).noneMatch(d -> d.taskName().equals("doomed"));
            assertThat(http.post("/actuator/ax/tasks/doomed/replay-dead-letters")
                            .<List<String>>read("$.replayed"))
                    .as("nothing left to replay")
                    .isEmpty();
            assertThat(http.post("/actuator/ax/tasks/no-such-task/replay-dead-letters")
                            .status())
                    .isEqualTo(404);
        } finally {
            jobs.healed.set(false);
        }
    }

    @Test
    void aTaskShowsTheParametersItDeclaresWithSecretValuesHidden() {
        Http.Answer answer = http.get("/actuator/ax/tasks/configured");

        assertThat(answer.<String>read("$.params.region")).isEqualTo("eu");
        assertThat(answer.<String>read("$.params.api-token")).isEqualTo("******");
    }

    @Test
    void unknownTasksInstancesAndPathsAnswer404WithAMessage() {
        assertNotFound(http.get("/actuator/ax/tasks/nope"), "Unknown task 'nope'");
        assertNotFound(http.get("/actuator/ax/instances/nope"), "Unknown instance 'nope'");
        assertNotFound(http.post("/actuator/ax/tasks/nope/trigger"), "Unknown task 'nope'");
        assertNotFound(http.post("/actuator/ax/tasks/nope/pause"), "Unknown task 'nope'");
        assertNotFound(http.post("/actuator/ax/tasks/nope/resume"), "Unknown task 'nope'");
        assertNotFound(http.delete("/actuator/ax/instances/nope"), "Unknown instance 'nope'");
        assertNotFound(http.post("/actuator/ax/dead-letters/nope/replay"), "Unknown instance 'nope'");
        assertNotFound(http.get("/actuator/ax/things"), "No such part of the ax endpoint: 'things'");
        assertNotFound(http.post("/actuator/ax/tasks/handler/explode"), "No action 'explode' on tasks");
    }

    @Test
    void garbageIdsAndTaskNamesAnswer404WithAMessageAndWriteNothing() {
        Writes before = writes();
        List<String> garbage = List.of(
                "%F0%9F%98%80",
                "%27%20OR%201%3D1%20--",
                "x".repeat(2_000),
                "00000000-0000-7000-8000-000000000000",
                "m0000000000000000000000000");

        for (String id : garbage) {
            assertClientError(http.get("/actuator/ax/instances/" + id), 404);
            assertClientError(http.delete("/actuator/ax/instances/" + id), 404);
            assertClientError(http.post("/actuator/ax/instances/" + id + "/cancel"), 404);
            assertClientError(http.post("/actuator/ax/instances/" + id + "/replay"), 404);
            assertClientError(http.post("/actuator/ax/dead-letters/" + id + "/replay"), 404);
            assertClientError(http.get("/actuator/ax/tasks/" + id), 404);
            for (String action : List.of("trigger", "pause", "resume", "cancel", "replay")) {
                assertClientError(http.post("/actuator/ax/tasks/" + id + "/" + action), 404);
            }
        }

        for (String refusedByTheServer : List.of("%00", "a%00b", "%ED%A0%80" /* a surrogate, not UTF-8 */)) {
            assertThat(http.get("/actuator/ax/instances/" + refusedByTheServer).status())
                    .isEqualTo(400);
            assertThat(http.post("/actuator/ax/tasks/" + refusedByTheServer + "/trigger")
                            .status())
                    .isEqualTo(400);
        }
        assertThat(writes()).as("nothing written").isEqualTo(before);
    }

    @Test
    void badPagesAnswer400WithAMessage() {
        for (String query : List.of(
                "page=-1",
                "size=0",
                "size=-5",
                "size=201",
                "size=2147483647",
                "page=2147483647&size=200",
                "page=abc",
                "size=1e99",
                "page=99999999999999999999")) {
            assertClientError(http.get("/actuator/ax/dead-letters?" + query), 400);
        }
        assertThat(http.get("/actuator/ax/dead-letters?page=10737418&size=200").status())
                .as("the last page whose offset a store can take")
                .isEqualTo(200);
    }

    @Test
    void missingArgumentsAnswer4xxAndWriteNothing() {
        Writes before = writes();

        for (Http.Answer answer : List.of(
                http.post("/actuator/ax"),
                http.post("/actuator/ax/tasks"),
                http.post("/actuator/ax/tasks/handler"),
                http.delete("/actuator/ax"),
                http.delete("/actuator/ax/tasks"),
                http.delete("/actuator/ax/tasks/handler"),
                http.get("/actuator/ax/tasks/handler/trigger"))) {
            assertThat(answer.status()).as(answer.body()).isBetween(400, 499);
        }

        assertThat(writes()).as("nothing written").isEqualTo(before);
    }

    /** What the endpoint's writes would change: instances (but the cron task's own), paused tasks, dead letters. */
    private record Writes(long instances, long paused, long deadLetters) {}

    private Writes writes() {
        return new Writes(
                store.findByStates(java.util.EnumSet.allOf(InstanceState.class), 100_000).stream()
                        .filter(i -> !i.taskName().equals("report"))
                        .count(),
                store.findTasks().stream().filter(t -> t.paused()).count(),
                store.deadLetterCount());
    }

    private static void assertClientError(Http.Answer answer, int status) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.<Integer>read("$.status")).isEqualTo(status);
        assertThat(answer.<String>read("$.message")).isNotBlank().hasSizeLessThan(1_000);
    }

    private static void assertNotFound(Http.Answer answer, String message) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(404);
        assertThat(answer.<Integer>read("$.status")).isEqualTo(404);
        assertThat(answer.<String>read("$.message")).isEqualTo(message);
    }

    /** Triggers the doomed task and waits until its instance is DEAD with a dead letter. */
    private String deadInstance() {
        String id = http.post("/actuator/ax/tasks/doomed/trigger").read("$.instanceId");
        await().atMost(BOUND)
                .until(() -> state(id) == InstanceState.DEAD
                        && store.deadLetters(0, 200).stream()
                                .anyMatch(d -> d.instanceId().equals(id)));
        return id;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Jobs.class)
    static class App {}

    static class Jobs {
        static final CountDownLatch RELEASE = new CountDownLatch(1);
        final AtomicBoolean healed = new AtomicBoolean();

        @AxJob(name = "report", cron = "0 0 3 * * ?", zone = "Europe/Berlin", timeout = "5s")
        void report() {}

        @AxJob(name = "handler", timeout = "5s", priority = 7)
        void handler() {}

        @AxJob(
                name = "configured",
                params = {"region=eu", "api-token=s3cr3t"},
                timeout = "5s")
        void configured() {}

        @AxJob(name = "doomed", timeout = "5s", retry = @AxJob.Retry(times = "1", base = "10ms"))
        void doomed(AxContext context) {
            if (!healed.get()) {
                throw new IllegalStateException("the downstream system is gone");
            }
        }

        @AxJob(name = "waiting", timeout = "5s", retry = @AxJob.Retry(times = "3", base = "1h", max = "1h"))
        void waiting() {
            throw new IllegalStateException("try again in an hour");
        }

        @AxJob(name = "busy", timeout = "30s")
        void busy() throws InterruptedException {
            RELEASE.await(30, TimeUnit.SECONDS);
        }

        @AxJob(name = "workflow-root", timeout = "5s")
        void workflowRoot() {}

        @AxJob(name = "workflow-step", dependsOn = "workflow-root", timeout = "5s")
        void workflowStep() {}
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
