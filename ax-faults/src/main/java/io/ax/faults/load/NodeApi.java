package io.ax.faults.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP API of a node, as the traffic uses it: the sample's orders (public) and the fault workload's delayed
 * tasks (whose writes carry the sample's viewer credentials, which spare them the CSRF token). Every call is bounded
 * by short timeouts: a frozen or cut-off node costs a few seconds, never a hang. Thread-safe.
 */
final class NodeApi {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final Pattern ORDER_ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");
    private static final Pattern INSTANCE_ID = Pattern.compile("\"([0-9a-f]{8}-[0-9a-f-]{27})\"");
    private static final String VIEWER =
            "Basic " + Base64.getEncoder().encodeToString("viewer:viewer".getBytes(StandardCharsets.UTF_8));

    private final HttpClient http;

    /** @param executor the client's threads: bounded and named by the caller */
    NodeApi(Executor executor) {
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(1))
                .executor(executor)
                .build();
    }

    /** Opens an order; its id, or -1 when the node did not answer 201. */
    long openOrder(int port, String item) throws InterruptedException {
        String body = send(port, "/orders", "{\"item\":\"" + item + "\"}", false, 201);
        if (body == null) {
            return -1;
        }
        Matcher m = ORDER_ID.matcher(body);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Pays an order; whether the node answered 200 (paid in time). */
    boolean pay(int port, long orderId) throws InterruptedException {
        return send(port, "/orders/" + orderId + "/pay", "", false, 200) != null;
    }

    /** Schedules delayed tasks on the node; their ids, empty when it did not answer. */
    List<String> scheduleDelayed(int port, int count, long minDelayMs, long maxDelayMs, double failFirst)
            throws InterruptedException {
        return ids(send(
                port,
                "/faults/delayed?count=" + count + "&minDelayMs=" + minDelayMs + "&maxDelayMs=" + maxDelayMs
                        + "&failFirst=" + failFirst,
                "",
                true,
                200));
    }

    /** The instance ids in a response's body; none when there is no body. */
    private static List<String> ids(String body) {
        List<String> ids = new ArrayList<>();
        if (body != null) {
            Matcher m = INSTANCE_ID.matcher(body);
            while (m.find()) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }

    /** Schedules bursts of the workload's limited tasks on the node; their ids, empty when it did not answer. */
    List<String> scheduleLimited(int port, int bursts, long minDelayMs, long maxDelayMs, double failFirst)
            throws InterruptedException {
        return ids(send(
                port,
                "/faults/limited?bursts=" + bursts + "&minDelayMs=" + minDelayMs + "&maxDelayMs=" + maxDelayMs
                        + "&failFirst=" + failFirst,
                "",
                true,
                200));
    }

    /** Cancels delayed tasks through the node; whether it answered. */
    boolean cancel(int port, List<String> ids) throws InterruptedException {
        String json = ids.stream()
                .map(id -> "\"" + id + "\"")
                .reduce((a, b) -> a + "," + b)
                .orElse("");
        return send(port, "/faults/delayed/cancel", "[" + json + "]", true, 200) != null;
    }

    /** The body of a response with the expected status, or null (another status, a timeout, a refused connection). */
    private String send(int port, String path, String json, boolean credentials, int expected)
            throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (credentials) {
            request.header("Authorization", VIEWER);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == expected ? response.body() : null;
        } catch (IOException e) {
            return null; // the node is down, frozen or cut off: the traffic counts it and goes on
        }
    }
}
