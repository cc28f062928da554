package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.JsonPath;
import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.InstanceStore;
import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The sample's security over real HTTP: health for everyone, the {@code ax} endpoint's reads for viewers, its writes
 * for operators, who are named in the audit trail; HTTP Basic for scripts, a form login with CSRF for browsers.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.datasource.url=jdbc:h2:mem:sample-security;DB_CLOSE_DELAY=-1"})
class SampleSecurityTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final Pattern CSRF_FIELD = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    @LocalServerPort
    int port;

    @Autowired
    InstanceStore store;

    @Autowired
    AxEngine engine;

    private final HttpClient anonymous = HttpClient.newHttpClient();

    @AfterEach
    void resume() {
        engine.resume("heartbeat");
    }

    @Test
    void healthIsPublic() throws Exception {
        assertThat(send(anonymous, get("/actuator/health")).statusCode()).isEqualTo(200);
    }

    @Test
    void anonymousCallersOfTheAxEndpointAreAskedToAuthenticate() throws Exception {
        HttpResponse<String> read = send(anonymous, get("/actuator/ax"));
        HttpResponse<String> write = send(anonymous, post("/actuator/ax/tasks/heartbeat/pause"));

        assertThat(read.statusCode()).isEqualTo(401);
        assertThat(read.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
        assertThat(write.statusCode()).isEqualTo(401);
        assertThat(send(anonymous, get("/actuator/prometheus")).statusCode()).isEqualTo(401);
        assertThat(engine.isPaused("heartbeat")).isFalse();
    }

    @Test
    void anAnonymousBrowserIsSentToTheLoginForm() throws Exception {
        HttpResponse<String> page = send(anonymous, get("/ax/").header("Accept", "text/html"));

        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
    }

    @Test
    void aViewerReadsButMayNotWrite() throws Exception {
        assertThat(send(anonymous, basic(get("/actuator/ax"), "viewer", "viewer"))
                        .statusCode())
                .isEqualTo(200);
        assertThat(send(anonymous, basic(get("/actuator/ax/tasks"), "viewer", "viewer"))
                        .statusCode())
                .isEqualTo(200);

        HttpResponse<String> write =
                send(anonymous, basic(post("/actuator/ax/tasks/heartbeat/pause"), "viewer", "viewer"));

        assertThat(write.statusCode()).isEqualTo(403);
        assertThat(engine.isPaused("heartbeat")).isFalse();
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        assertThat(send(anonymous, basic(get("/actuator/ax"), "operator", "guess"))
                        .statusCode())
                .isEqualTo(401);
    }

    @Test
    void anOperatorWritesWithHttpBasicAndIsNamedInTheAuditTrail() throws Exception {
        HttpResponse<String> triggered =
                send(anonymous, basic(post("/actuator/ax/tasks/tick/trigger"), "operator", "operator"));

        assertThat(triggered.statusCode()).isEqualTo(200);
        String id = field(triggered.body(), "instanceId");
        await().atMost(BOUND).until(() -> !store.auditTrail(id).isEmpty());
        assertThat(store.auditTrail(id))
                .first()
                .extracting(AuditEntry::reason)
                .isEqualTo("triggered on demand by operator 'operator' from 127.0.0.1");
    }

    @Test
    void aDeadInstancesStackTraceIsShownToOperatorsAndNotToViewers() throws Exception {
        String id = engine.triggerNow("doomed");
        await().atMost(BOUND)
                .until(() ->
                        store.find(id).map(i -> i.state() == InstanceState.DEAD).orElse(false)
                                && store.deadLetter(id).isPresent());

        String operator = send(anonymous, basic(get("/actuator/ax/instances/" + id), "operator", "operator"))
                .body();
        String viewer = send(anonymous, basic(get("/actuator/ax/instances/" + id), "viewer", "viewer"))
                .body();

        assertThat(JsonPath.<String>read(operator, "$.deadLetter.stackTrace"))
                .contains("the downstream system is gone")
                .contains("SampleJobs.doomed");
        assertThat(JsonPath.<String>read(operator, "$.deadLetter.lastError")).contains("the downstream system is gone");
        assertThat(JsonPath.<List<String>>read(operator, "$.attempts[*].outcome"))
                .containsExactly("FAILED", "FAILED", "FAILED");
        assertThat(JsonPath.<Object>read(viewer, "$.deadLetter.stackTrace")).isNull();
        assertThat(JsonPath.<String>read(viewer, "$.deadLetter.stackTraceRole")).isEqualTo("OPERATOR");
        assertThat(JsonPath.<String>read(viewer, "$.deadLetter.lastError")).contains("the downstream system is gone");
    }

    @Test
    void aBrowserLogsInWithTheFormAndWritesWithTheTokenOfTheCsrfCookie() throws Exception {
        HttpClient browser =
                HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        HttpResponse<String> page = send(browser, get("/login"));
        assertThat(page.statusCode()).isEqualTo(200);
        Matcher field = CSRF_FIELD.matcher(page.body());
        assertThat(field.find()).as("the login form carries a CSRF token").isTrue();

        HttpResponse<String> login = send(
                browser,
                form(
                        "/login",
                        "username=operator&password=operator&_csrf="
                                + URLEncoder.encode(field.group(1), StandardCharsets.UTF_8)));
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(login.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/ax/"));

        assertThat(send(browser, get("/actuator/ax")).statusCode())
                .as("the session reads")
                .isEqualTo(200);
        assertThat(send(browser, post("/actuator/ax/tasks/heartbeat/pause")).statusCode())
                .as("a write of the session without the token: what a forged cross-site request looks like")
                .isEqualTo(403);
        assertThat(engine.isPaused("heartbeat")).isFalse();

        String token = cookie(browser, "XSRF-TOKEN");
        HttpResponse<String> paused = send(
                browser,
                HttpRequest.newBuilder(uri("/actuator/ax/tasks/heartbeat/pause"))
                        .header("X-XSRF-TOKEN", token)
                        .POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(paused.statusCode()).isEqualTo(200);
        assertThat(engine.isPaused("heartbeat")).isTrue();
    }

    @Test
    void theFormLoginRefusesAPostWithoutItsToken() throws Exception {
        HttpClient browser =
                HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        send(browser, get("/login"));

        HttpResponse<String> login = send(browser, form("/login", "username=operator&password=operator"));

        assertThat(login.statusCode()).isEqualTo(403);
    }

    private String cookie(HttpClient client, String name) {
        CookieManager cookies = (CookieManager) client.cookieHandler().orElseThrow();
        List<HttpCookie> found = cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals(name))
                .toList();
        assertThat(found).as("cookie " + name).isNotEmpty();
        return found.get(found.size() - 1).getValue();
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertThat(m.find()).as(json).isTrue();
        return m.group(1);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(uri(path)).GET();
    }

    private HttpRequest.Builder post(String path) {
        return HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody());
    }

    private HttpRequest.Builder form(String path, String body) {
        return HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpRequest.Builder basic(HttpRequest.Builder request, String user, String password) {
        String credentials =
                Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return request.header("Authorization", "Basic " + credentials);
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
