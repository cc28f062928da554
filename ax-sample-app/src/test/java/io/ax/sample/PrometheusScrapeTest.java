package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Prometheus scrapes the sample and finds AX's series: a retry, a dead letter and successes included. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "sample.retry.base=100ms",
            "sample.tick.rate=500ms",
            "spring.datasource.url=jdbc:h2:mem:sample-prometheus;DB_CLOSE_DELAY=-1"
        })
class PrometheusScrapeTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final List<String> SERIES = List.of(
            "ax_trigger_lateness_seconds{",
            "ax_trigger_lateness_seconds_count{",
            "ax_dispatch_total{",
            "ax_ack_latency_seconds_count{",
            "ax_execution_seconds_count{",
            "ax_retries_total{",
            "ax_dead_letters_total{",
            "ax_backlog{",
            "ax_wheel_entries ",
            "ax_backlog_oldest_seconds ",
            "ax_leader ",
            "ax_clock_jumps_total{",
            "ax_node_received_total{",
            "ax_partitions_owned ");

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theScrapeHoldsEveryAxSeries() {
        String scrape =
                await().atMost(BOUND).until(this::scrape, s -> SERIES.stream().allMatch(s::contains));

        assertThat(scrape).contains("ax_leader 1.0");
        assertThat(scrape).contains("ax_execution_seconds_count{group=\"default\",outcome=\"success\",task=\"tick\"}");
        assertThat(scrape).contains("ax_dead_letters_total{group=\"default\",task=\"doomed\"}");
        assertThat(scrape).contains("ax_trigger_lateness_seconds{group=\"default\",quantile=\"0.99\"}");
        assertThat(scrape).contains("ax_dispatch_total{group=\"default\",outcome=\"dispatched\"}");
    }

    @Test
    void everyMetricTheAlertRulesNameIsInTheScrape() throws Exception {
        String rules = alertRules();
        java.util.Set<String> metrics = new java.util.TreeSet<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\\b(ax_[a-z_]+)\\b").matcher(rules);
        while (m.find()) {
            metrics.add(m.group(1));
        }
        assertThat(metrics).as("metrics the rules name").hasSizeGreaterThanOrEqualTo(5);
        String scrape =
                await().atMost(BOUND).until(this::scrape, s -> metrics.stream().allMatch(name -> hasSeries(s, name)));
        assertThat(metrics)
                .allSatisfy(name -> assertThat(hasSeries(scrape, name)).as(name).isTrue());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theAlertRulesAreYamlThatPrometheusReads() throws Exception {
        Map<String, Object> file = new org.yaml.snakeyaml.Yaml().load(alertRules());
        List<Map<String, Object>> groups = (List<Map<String, Object>>) file.get("groups");
        assertThat(groups).isNotEmpty();
        List<Map<String, Object>> rules =
                (List<Map<String, Object>>) groups.get(0).get("rules");
        assertThat(rules)
                .hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(rule -> assertThat(rule).containsKeys("alert", "expr", "labels"));
    }

    @Test
    void theRuleOnUnownedPartitionsStaysQuietWhileTheOnlyNodeOwnsEveryPartition() throws Exception {
        java.util.regex.Matcher rule = java.util.regex.Pattern.compile("expr: sum\\(ax_partitions_owned\\) < (\\d+)\n")
                .matcher(alertRules());
        assertThat(rule.find()).as("the rule on unowned partitions").isTrue();
        java.util.regex.Pattern owned = java.util.regex.Pattern.compile("\nax_partitions_owned (\\d+)\\.0\n");

        String scrape = await().atMost(BOUND)
                .until(
                        this::scrape,
                        s -> owned.matcher(s)
                                .results()
                                .anyMatch(m -> !m.group(1).equals("0")));

        java.util.regex.Matcher sample = owned.matcher(scrape);
        assertThat(sample.find()).isTrue();
        assertThat(sample.group(1))
                .as("a node alone owns every partition: the rule's count is the sample's partition count")
                .isEqualTo(rule.group(1));
    }

    /** The Prometheus alert rules the docs ship, docs/ax-alerts.yml (explained in docs/operations.md). */
    private static String alertRules() throws IOException {
        java.nio.file.Path rules = java.nio.file.Path.of("..", "docs", "ax-alerts.yml");
        assertThat(rules).as("the alert rules of the docs").isRegularFile();
        return java.nio.file.Files.readString(rules);
    }

    /** Whether the scrape has a series of that name (with labels or without). */
    private static boolean hasSeries(String scrape, String name) {
        return scrape.contains("\n" + name + "{") || scrape.contains("\n" + name + " ");
    }

    @Test
    void theAxEndpointAndHealthAreExposed() throws Exception {
        assertThat(get("/actuator/ax").statusCode()).isEqualTo(200);
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.body()).contains("\"ax\"");
    }

    private String scrape() throws IOException, InterruptedException {
        return get("/actuator/prometheus").body();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        // the sample lets viewers read the Actuator endpoints (health is public)
        String viewer = java.util.Base64.getEncoder()
                .encodeToString("viewer:viewer".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Basic " + viewer)
                .timeout(Duration.ofSeconds(10))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
