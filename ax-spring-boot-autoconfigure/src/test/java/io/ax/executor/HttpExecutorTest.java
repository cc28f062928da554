package io.ax.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.ax.core.AuditEntry;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.InvalidTaskException;
import io.ax.core.RetryPolicy;
import io.ax.core.SecretParams;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InMemoryInstanceStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** HTTP tasks run by the engine against a real HTTP server on a local port. */
class HttpExecutorTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final List<AxDeadLetterEvent> deadLetters = new CopyOnWriteArrayList<>();
    private LocalHttpServer server;
    private HttpExecutor executor;
    private AxEngine engine;

    @BeforeEach
    void startServer() throws Exception {
        server = new LocalHttpServer();
        executor = new HttpExecutor(new HttpSettings(List.of(server.url("/")), 4096, Duration.ofSeconds(2), 2));
    }

    @AfterEach
    void stopAll() {
        if (engine != null) {
            engine.stop();
        }
        executor.close();
        server.close();
    }

    @Test
    void aSuccessfulCallRecordsStatusDurationAndBodyOnTheInstance() {
        String id = run(task("ping", server.url("/ok")).build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(last(id).reason()).matches("HTTP 200 in \\d+ ms; body \\(5 bytes\\): hello");
        assertThat(server.seen)
                .singleElement()
                .satisfies(s -> assertThat(s.method()).isEqualTo("GET"));
    }

    @Test
    void sendsMethodHeadersAndBodyWithVariablesSubstitutedAndUrlPartsEncoded() {
        AxTask task = task("post", server.url("/echo/${region}/${instanceId}?q=${query}&attempt=${attempt}"))
                .params(Map.of(
                        "method", "POST",
                        "region", "eu west/1",
                        "query", "a&b=c?d",
                        "header.X-Request", "${instanceId}-${attempt}",
                        "body", "{\"id\":\"${instanceId}\",\"at\":\"${scheduledTime}\",\"region\":\"${region}\"}"))
                .build();
        String id = run(task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        LocalHttpServer.Seen seen = server.seen.get(0);
        assertThat(seen.method()).isEqualTo("POST");
        assertThat(seen.rawPathAndQuery())
                .isEqualTo("/echo/eu%20west%2F1/" + HttpTaskSpec.encode(id) + "?q=a%26b%3Dc%3Fd&attempt=1");
        assertThat(seen.headers().get("X-request")).containsExactly(id + "-1");
        assertThat(seen.body()).startsWith("{\"id\":\"" + id + "\",\"at\":\"20").endsWith("\"region\":\"eu west/1\"}");
    }

    @Test
    void serverErrorsFailTheAttemptAndAreRetriedUntilTheServerAnswers() {
        server.failFlakyTimes(2);
        String id = run(task("flaky", server.url("/flaky"))
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(20), Duration.ofMillis(20)))
                .build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        List<String> failures = store.auditTrail(id).stream()
                .filter(e -> e.to() == InstanceState.FAILED)
                .map(AuditEntry::reason)
                .toList();
        assertThat(failures)
                .hasSize(2)
                .allSatisfy(r -> assertThat(r)
                        .contains("HTTP 503")
                        .contains("busy, call")
                        .contains("success is 2xx"));
        assertThat(last(id).reason()).contains("HTTP 200").contains("fine, call 3");
        assertThat(last(id).attempt()).isEqualTo(3);
    }

    @Test
    void theSuccessStatusesAreConfigurablePerTask() {
        String accepted = run(task("gone-ok", server.url("/status/410"))
                .params(Map.of("success-status", "2xx,410"))
                .build());
        String refused = run(task("gone", server.url("/status/410")).build());

        await().atMost(BOUND).until(() -> state(accepted) == InstanceState.SUCCESS);
        await().atMost(BOUND).until(() -> state(refused) == InstanceState.DEAD);
        assertThat(deadLetters)
                .singleElement()
                .satisfies(d ->
                        assertThat(d.deadLetter().attempts().get(0).error()).contains("HTTP 410"));
    }

    @Test
    void redirectsAreNotFollowed() {
        String id = run(task("moved", server.url("/redirect")).build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(server.seen).hasSize(1);
        assertThat(failureReasons(id)).singleElement().asString().contains("HTTP 302");
    }

    @Test
    void onlyTheFirstBytesOfALargeBodyAreRecorded() {
        executor.close();
        executor = new HttpExecutor(new HttpSettings(List.of(server.url("/")), 100, Duration.ofSeconds(2), 2));
        String id = run(task("big", server.url("/big")).build());

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(last(id).reason()).contains("body (10000 bytes, first 100 kept): " + "x".repeat(100));
        assertThat(last(id).reason()).doesNotContain("x".repeat(101));
    }

    @Test
    void manyTimedOutRequestsAreCancelledAndLeaveNoConnectionOpen() {
        int requests = 40;
        AxTask slow = task("slow", server.url("/slow"))
                .timeout(Duration.ofMillis(500))
                .concurrent(true)
                .build();
        start(slow, task("ping", server.url("/ok")).build());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            ids.add(engine.triggerNow("slow"));
        }

        await().atMost(Duration.ofSeconds(60))
                .until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.DEAD));
        assertThat(ids).allSatisfy(id -> assertThat(failureStates(id)).containsExactly(InstanceState.TIMEOUT));
        // the server sees every exchange that reached it go away: the client holds no connection for them
        await().atMost(BOUND).until(() -> server.slowOpen.get() == 0);
        assertThat(server.slowStarted.get()).isPositive();
        assertThat(server.slowAbandoned.get()).isEqualTo(server.slowStarted.get());
        // and the client still serves new requests at once
        String ping = engine.triggerNow("ping");
        await().atMost(Duration.ofSeconds(5)).until(() -> state(ping) == InstanceState.SUCCESS);
    }

    @Test
    void urlsOutsideTheAllowListFailWhenTheTaskIsDefined() {
        String port = server.url("").replace("http://127.0.0.1", "");
        for (String url : List.of(
                "http://example.org/",
                "http://127.0.0.1" + port + "x/",
                "http://127.0.0.1" + (port.equals(":1") ? ":2" : ":1") + "/ok",
                "https://127.0.0.1" + port + "/ok",
                "http://127.0.0.1" + port + ".evil.org/ok",
                "http://user@127.0.0.1" + port + "/ok",
                "ftp://127.0.0.1" + port + "/ok",
                "not a url")) {
            assertThatThrownBy(() -> executor.check(task("out", url).build()))
                    .as(url)
                    .isInstanceOfSatisfying(
                            InvalidTaskException.class,
                            e -> assertThat(e.attribute()).isEqualTo("target"));
        }
        assertThatThrownBy(
                        () -> executor.check(task("out", "http://example.org/").build()))
                .hasMessageContaining(
                        "'http://example.org/' is not under any of ax.http.allowed-urls [" + server.url("/") + "]");
    }

    @Test
    void theAllowListMatchesWholePathSegmentsAndNoDotSegments() {
        executor.close();
        executor = new HttpExecutor(new HttpSettings(List.of(server.url("/api/v1")), 4096, Duration.ofSeconds(2), 1));
        executor.check(task("in", server.url("/api/v1")).build());
        executor.check(task("in", server.url("/api/v1/orders?x=1")).build());
        for (String path : List.of("/api/v10", "/api/v1/../admin", "/api", "/other")) {
            assertThatThrownBy(
                            () -> executor.check(task("out", server.url(path)).build()))
                    .as(path)
                    .isInstanceOf(InvalidTaskException.class)
                    .hasMessageContaining("is not under any of ax.http.allowed-urls");
        }
    }

    @Test
    void aVariableMayNotChooseTheServer() {
        AxTask task = task("choose", "http://${host}/ok")
                .params(Map.of("host", "127.0.0.1"))
                .build();
        assertThatThrownBy(() -> executor.check(task))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("a variable may not choose the scheme, host or port");
        assertThatThrownBy(() ->
                        executor.check(task("x", server.url("/ok/${nope}")).build()))
                .hasMessageContaining("unknown variable ${nope}");
    }

    @Test
    void badMethodsHeadersAndStatusesFailWhenTheTaskIsDefined() {
        assertThatThrownBy(() -> executor.check(task("m", server.url("/ok"))
                        .params(Map.of("method", "GET /x"))
                        .build()))
                .hasMessageContaining("attribute 'params.method'");
        assertThatThrownBy(() -> executor.check(task("h", server.url("/ok"))
                        .params(Map.of("header.Host", "elsewhere"))
                        .build()))
                .hasMessageContaining("attribute 'params.header.Host'");
        assertThatThrownBy(() -> executor.check(task("s", server.url("/ok"))
                        .params(Map.of("success-status", "ok"))
                        .build()))
                .hasMessageContaining("'ok' is not a status code");
        String secret = "s3cr3t-value\r\nX-Injected: 1";
        assertThatThrownBy(() -> executor.check(task("h", server.url("/ok"))
                        .params(Map.of("header.Authorization", secret))
                        .build()))
                .hasMessageContaining("must not contain a line break")
                .message()
                .doesNotContain("s3cr3t");
    }

    @Test
    void credentialsInHeadersAppearNeitherInLogsNorInTheAuditNorInDeadLetters() {
        String secret = "Bearer top-secret-token-42";
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Level before = root.getLevel();
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        root.addAppender(logs);
        root.setLevel(Level.ALL);
        try {
            String ok = run(task("auth-ok", server.url("/ok"))
                    .params(Map.of("header.Authorization", secret))
                    .build());
            String failing = engine.triggerNow("auth-fail");
            await().atMost(BOUND).until(() -> state(ok) == InstanceState.SUCCESS);
            await().atMost(BOUND).until(() -> state(failing) == InstanceState.DEAD);
            await().atMost(BOUND).until(() -> deadLetters.size() == 1);

            assertThat(server.seen.get(0).headers().get("Authorization")).containsExactly(secret);
            for (String id : List.of(ok, failing)) {
                assertThat(store.auditTrail(id))
                        .allSatisfy(e -> assertThat(e.reason()).doesNotContain("secret"));
            }
            assertThat(deadLetters.get(0).deadLetter().params())
                    .containsEntry("header.Authorization", SecretParams.HIDDEN);
            assertThat(deadLetters.get(0).deadLetter().toString()).doesNotContain("top-secret");
            assertThat(seen(logs)).isNotEmpty().allSatisfy(e -> {
                assertThat(e.getFormattedMessage()).doesNotContain("top-secret");
                if (e.getThrowableProxy() != null) {
                    assertThat(ThrowableProxyUtil.asString(e.getThrowableProxy()))
                            .doesNotContain("top-secret");
                }
            });
        } finally {
            root.detachAppender(logs);
            root.setLevel(before);
        }
    }

    // ---- helpers

    /** What the appender caught so far: engine threads may still be logging, so a copy taken under its lock. */
    private static List<ILoggingEvent> seen(ListAppender<ILoggingEvent> logs) {
        synchronized (logs) {
            return List.copyOf(logs.list);
        }
    }

    private AxTask.Builder task(String name, String url) {
        return AxTask.builder(name).type(HttpExecutor.TYPE).target(url).timeout(Duration.ofSeconds(5));
    }

    /** Starts the engine with {@code task} (and a failing twin named auth-fail when it has credentials). */
    private String run(AxTask task) {
        List<AxTask> tasks = new ArrayList<>(List.of(task));
        if (task.name().equals("auth-ok")) {
            tasks.add(AxTask.builder("auth-fail")
                    .type(HttpExecutor.TYPE)
                    .target(server.url("/status/500"))
                    .params(task.params())
                    .retry(new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                    .build());
        }
        if (engine == null) {
            start(tasks.toArray(AxTask[]::new));
        } else {
            tasks.forEach(engine::register);
        }
        return engine.triggerNow(task.name());
    }

    private void start(AxTask... tasks) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-http")
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(16, 1000)))
                .shutdownAwait(Duration.ofSeconds(2))
                .onDeadLetter(deadLetters::add)
                .build();
        for (AxTask t : tasks) {
            engine.register(t);
        }
        engine.start();
    }

    private InstanceState state(String id) {
        return engine.find(id).orElseThrow().instance().state();
    }

    private AuditEntry last(String id) {
        List<AuditEntry> trail = store.auditTrail(id);
        return trail.get(trail.size() - 1);
    }

    private List<String> failureReasons(String id) {
        return store.auditTrail(id).stream()
                .filter(e -> e.to() == InstanceState.FAILED || e.to() == InstanceState.TIMEOUT)
                .map(AuditEntry::reason)
                .toList();
    }

    private List<InstanceState> failureStates(String id) {
        return store.auditTrail(id).stream()
                .map(AuditEntry::to)
                .filter(s -> s == InstanceState.FAILED || s == InstanceState.TIMEOUT)
                .toList();
    }
}
