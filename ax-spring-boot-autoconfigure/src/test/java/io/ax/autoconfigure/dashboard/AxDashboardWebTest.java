package io.ax.autoconfigure.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.ax.core.AxJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/** The dashboard's page, files and session resource, over HTTP, with a stand-in for the application's security. */
class AxDashboardWebTest {

    @Nested
    @SpringBootTest(
            classes = App.class,
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {
                "ax.dashboard.enabled=true",
                "management.endpoints.web.exposure.include=ax",
                "management.endpoint.ax.access=unrestricted",
                "server.servlet.context-path=/shop"
            })
    class WithAWritableEndpoint {

        @LocalServerPort
        int port;

        @Test
        void thePathIsSentOnToThePageWhichLoadsOnlyItsOwnFiles() {
            HttpResponse<String> bare = get("/shop/ax", null);
            assertThat(bare.statusCode()).isEqualTo(302);
            assertThat(bare.headers().firstValue("Location")).hasValue("/shop/ax/");

            HttpResponse<String> page = get("/shop/ax/", null);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(page.body()).contains("<script src=\"dashboard.js\" defer></script>");
            assertThat(page.body()).doesNotContain("http://", "https://", "//cdn");
            assertThat(page.headers().firstValue("Content-Security-Policy"))
                    .hasValue(DashboardRoutes.CONTENT_SECURITY_POLICY);

            HttpResponse<String> script = get("/shop/ax/dashboard.js", null);
            assertThat(script.statusCode()).isEqualTo(200);
            assertThat(script.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).contains("javascript"));
            assertThat(script.body()).contains("X-XSRF-TOKEN").doesNotContain("innerHTML =", "innerHTML=");
            assertThat(get("/shop/ax/dashboard.css", null).statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<link rel=\"icon\" href=\"favicon.svg\" type=\"image/svg+xml\">");
            HttpResponse<String> icon = get("/shop/ax/favicon.svg", null);
            assertThat(icon.statusCode()).isEqualTo(200);
            assertThat(icon.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("image/svg+xml"));
            assertThat(get("/shop/ax/nothing-here.js", null).statusCode()).isEqualTo(404);
        }

        @Test
        void anOperatorMayWrite() {
            HttpResponse<String> session = get("/shop/ax/api/session", "olga:OPERATOR");

            assertThat(session.statusCode()).isEqualTo(200);
            assertThat(session.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(JsonPath.<String>read(session.body(), "$.user")).isEqualTo("olga");
            assertThat(JsonPath.<Boolean>read(session.body(), "$.canWrite")).isTrue();
            assertThat(JsonPath.<Boolean>read(session.body(), "$.endpointWritable"))
                    .isTrue();
            assertThat(JsonPath.<String>read(session.body(), "$.endpoint")).isEqualTo("/shop/actuator/ax");
        }

        @Test
        void aViewerMayNot() {
            String body = get("/shop/ax/api/session", "vic:VIEWER").body();

            assertThat(JsonPath.<String>read(body, "$.user")).isEqualTo("vic");
            assertThat(JsonPath.<Boolean>read(body, "$.canWrite")).isFalse();
            assertThat(JsonPath.<Boolean>read(body, "$.endpointWritable")).isTrue();
        }

        @Test
        void nobodySignedInMayNot() {
            String body = get("/shop/ax/api/session", null).body();

            assertThat(JsonPath.<String>read(body, "$.user")).isNull();
            assertThat(JsonPath.<Boolean>read(body, "$.canWrite")).isFalse();
        }

        private HttpResponse<String> get(String path, String user) {
            return AxDashboardWebTest.get(port, path, user);
        }
    }

    @Nested
    @SpringBootTest(
            classes = App.class,
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {
                "ax.dashboard.enabled=true",
                "ax.dashboard.path=/ops/scheduler/",
                "ax.dashboard.write-role=ADMIN",
                "management.endpoints.web.exposure.include=ax",
                "management.endpoint.ax.access=read-only"
            })
    class WithAReadOnlyEndpoint {

        @LocalServerPort
        int port;

        @Test
        void evenAnOperatorOnlyReads() {
            String body = AxDashboardWebTest.get(port, "/ops/scheduler/api/session", "olga:ADMIN")
                    .body();

            assertThat(JsonPath.<String>read(body, "$.user")).isEqualTo("olga");
            assertThat(JsonPath.<Boolean>read(body, "$.endpointWritable")).isFalse();
            assertThat(JsonPath.<Boolean>read(body, "$.canWrite")).isFalse();
            assertThat(JsonPath.<String>read(body, "$.endpoint")).isEqualTo("/actuator/ax");
        }

        @Test
        void theConfiguredPathServesThePage() {
            assertThat(AxDashboardWebTest.get(port, "/ops/scheduler/", null).statusCode())
                    .isEqualTo(200);
            assertThat(AxDashboardWebTest.get(port, "/ax/", null).statusCode()).isEqualTo(404);
        }
    }

    @Nested
    @SpringBootTest(
            classes = App.class,
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"ax.dashboard.enabled=true", "management.endpoints.web.exposure.include=health"})
    class WithoutTheEndpoint {

        @LocalServerPort
        int port;

        @Test
        void theSessionSaysTheEndpointIsNotExposed() {
            String body = AxDashboardWebTest.get(port, "/ax/api/session", "olga:OPERATOR")
                    .body();

            assertThat(JsonPath.<Object>read(body, "$.endpoint")).isNull();
        }
    }

    static HttpResponse<String> get(int port, String path, String user) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .GET();
        if (user != null) {
            request.header(SignedInAs.HEADER, user);
        }
        try {
            return HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build()
                    .send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        SignedInAs signedInAs() {
            return new SignedInAs();
        }

        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }

    static class Jobs {
        @AxJob(name = "handler", timeout = "5s")
        void handler() {}
    }
}
