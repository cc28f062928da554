package io.ax.executor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A real HTTP server on a free local port, with the endpoints the HTTP executor tests call. */
final class LocalHttpServer implements AutoCloseable {

    /** One request as the server saw it. */
    record Seen(String method, String rawPathAndQuery, Map<String, List<String>> headers, String body) {}

    final List<Seen> seen = new CopyOnWriteArrayList<>();
    /** Slow exchanges the server began to answer. */
    final AtomicInteger slowStarted = new AtomicInteger();
    /** Slow exchanges whose client is still connected. */
    final AtomicInteger slowOpen = new AtomicInteger();
    /** Slow exchanges that saw their client go away. */
    final AtomicInteger slowAbandoned = new AtomicInteger();

    private final AtomicInteger flakyCalls = new AtomicInteger();
    /** Counted down at close: slow exchanges still trickling end then, not a minute later. */
    private final CountDownLatch closing = new CountDownLatch(1);

    private final ExecutorService threads = Executors.newFixedThreadPool(64, r -> new Thread(r, "test-http-server"));
    private final HttpServer server;
    private volatile int flakyFailures;

    LocalHttpServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        server.setExecutor(threads);
        server.createContext("/ok", ex -> respond(ex, 200, "hello"));
        server.createContext(
                "/echo",
                ex -> respond(
                        ex,
                        200,
                        ex.getRequestURI().getRawPath() + "?"
                                + ex.getRequestURI().getRawQuery()));
        server.createContext("/status/", ex -> {
            int code = Integer.parseInt(ex.getRequestURI().getPath().substring("/status/".length()));
            respond(ex, code, "status " + code);
        });
        server.createContext("/flaky", ex -> {
            int call = flakyCalls.incrementAndGet();
            if (call <= flakyFailures) {
                respond(ex, 503, "busy, call " + call);
            } else {
                respond(ex, 200, "fine, call " + call);
            }
        });
        server.createContext("/big", ex -> respond(ex, 200, "x".repeat(10_000)));
        server.createContext("/redirect", ex -> {
            ex.getResponseHeaders().add("Location", "http://example.org/");
            respond(ex, 302, "");
        });
        server.createContext("/slow", this::slow);
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    void failFlakyTimes(int times) {
        flakyFailures = times;
    }

    private void respond(HttpExchange ex, int status, String text) throws IOException {
        byte[] body = ex.getRequestBody().readAllBytes();
        seen.add(new Seen(
                ex.getRequestMethod(),
                ex.getRequestURI().getRawPath()
                        + (ex.getRequestURI().getRawQuery() == null
                                ? ""
                                : "?" + ex.getRequestURI().getRawQuery()),
                Map.copyOf(ex.getRequestHeaders()),
                new String(body, StandardCharsets.UTF_8)));
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
        ex.close();
    }

    /** Sends headers, then a byte every 20 ms, until the client goes away (or a minute passes). */
    private void slow(HttpExchange ex) throws IOException {
        slowStarted.incrementAndGet();
        slowOpen.incrementAndGet();
        try {
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (System.nanoTime() < end) {
                out.write('.');
                out.flush();
                if (closing.await(20, TimeUnit.MILLISECONDS)) {
                    break; // the server closes; between bytes, the pace of a slow server
                }
            }
        } catch (IOException gone) {
            slowAbandoned.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            slowOpen.decrementAndGet();
            ex.close();
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
