package io.ax.faults.store;

import io.ax.faults.Log;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the running nodes show of their store at the end of the run, before they stop: each non-zero sample of a
 * store-regression metric on {@code /actuator/prometheus} (a metric whose name has {@code store_regression}), and
 * AX's health component when it is not UP, each as a row of {@code faults_said} (source {@code metric} or {@code
 * health}). A node restarted since a failover shows only what it saw since. Bounded: a node that does not answer
 * within two seconds is passed over.
 */
public final class NodeSayings {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Pattern METRIC =
            Pattern.compile("^(\\w*store_regression\\w*)(\\{[^}]*\\})?\\s+([0-9.eE+-]+)$");
    private static final Pattern AX_HEALTH = Pattern.compile("\"ax\"\\s*:\\s*\\{\\s*\"status\"\\s*:\\s*\"(\\w+)\"");

    private NodeSayings() {}

    /**
     * Asks every node of {@code httpPorts} (node name to its HTTP port) and records what it shows.
     *
     * @return how many rows were recorded
     */
    public static int record(Map<String, Integer> httpPorts, JdbcTemplate witness, long nowUs)
            throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        int rows = 0;
        for (Map.Entry<String, Integer> node : httpPorts.entrySet()) {
            String metrics = get(http, node.getValue(), "/actuator/prometheus");
            for (String line :
                    metrics == null ? List.<String>of() : metrics.lines().toList()) {
                Matcher m = METRIC.matcher(line.strip());
                if (m.matches() && Double.parseDouble(m.group(3)) > 0) {
                    insert(witness, "metric", node.getKey(), nowUs, line.strip());
                    rows++;
                }
            }
            String health = get(http, node.getValue(), "/actuator/health");
            Matcher m = health == null ? null : AX_HEALTH.matcher(health);
            if (m != null && m.find() && !m.group(1).equals("UP")) {
                insert(
                        witness,
                        "health",
                        node.getKey(),
                        nowUs,
                        health.length() > 4000 ? health.substring(0, 4000) : health);
                rows++;
            }
        }
        Log.info("the running nodes' metrics and health said %d thing(s) about their store", rows);
        return rows;
    }

    private static void insert(JdbcTemplate witness, String source, String node, long atUs, String line) {
        witness.update(
                "INSERT INTO faults_said (source, node, log_file, at_us, line, instance_ids) VALUES (?, ?, '', ?, ?, '')",
                source,
                node,
                atUs,
                line);
    }

    private static String get(HttpClient http, int port, String path) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(TIMEOUT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            return null;
        }
    }
}
