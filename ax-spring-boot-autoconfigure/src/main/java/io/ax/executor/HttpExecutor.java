package io.ax.executor;

import io.ax.core.AxContext;
import io.ax.core.AxException;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Runs {@link #TYPE HTTP} tasks: one request per attempt with the JDK {@link HttpClient}.
 *
 * <p>The task's target is the URL; its parameters give {@code method} (default GET), {@code body}, {@code
 * header.<Name>} and {@code success-status} (default {@code 2xx}; e.g. {@code 200,204} or {@code 2xx,304}). URL,
 * headers and body may use {@code ${instanceId}}, {@code ${attempt}}, {@code ${scheduledTime}}, {@code ${taskName}}
 * and any parameter as {@code ${name}}; values substituted into the URL are percent-encoded.
 *
 * <p><b>Security.</b> Only URLs under a prefix of {@link HttpSettings#allowedUrls()} are called (same scheme, host
 * and port, path under the prefix's path at a segment boundary, no dot segments, no user info); a task outside it,
 * or whose variables could choose the host, fails when it is defined. Redirects are never followed (a 3xx is not a
 * success unless listed). Header values and the URL are never written to the instance's record or to logs; what is
 * recorded is the status, the duration and the first {@link HttpSettings#maxRecordedBody()} bytes of the body.
 *
 * <p><b>Timeouts.</b> The task's timeout bounds the whole exchange: when it elapses the worker is interrupted, the
 * request is cancelled and its connection closed, so timed-out requests never pile up in the client. Thread-safe;
 * {@link #close()} stops the client's threads.
 */
public final class HttpExecutor implements AxExecutor, AutoCloseable {

    /** The task type this executor runs. */
    public static final String TYPE = "HTTP";

    private final HttpSettings settings;
    private final UrlAllowList allowList;
    private final ThreadPoolExecutor ioPool;
    private final HttpClient client;

    /** @throws IllegalArgumentException when an allowed prefix is not an absolute http(s) URL */
    public HttpExecutor(HttpSettings settings) {
        this.settings = settings;
        this.allowList = new UrlAllowList(settings.allowedUrls());
        AtomicInteger counter = new AtomicInteger();
        // each exchange holds one AX worker while it runs, so the work queued here is bounded by the pools' threads;
        // the queue's bound only guards against a bug
        this.ioPool = new ThreadPoolExecutor(
                settings.ioThreads(),
                settings.ioThreads(),
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(100_000),
                r -> {
                    Thread t = new Thread(r, "ax-http-" + counter.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        ioPool.allowCoreThreadTimeOut(true);
        this.client = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(ioPool)
                .build();
    }

    @Override
    public boolean matchTaskType(String type) {
        return TYPE.equals(type);
    }

    @Override
    public void check(AxTask task) {
        HttpTaskSpec spec = HttpTaskSpec.of(task, allowList);
        try {
            // the client has rules of its own for methods and headers; meet them now rather than at the first fire
            request(spec, task, Templates.values(task, SampleContext.of(task)));
        } catch (IllegalArgumentException e) {
            throw new InvalidTaskException(task.name(), "params", "the request cannot be built: " + safe(e));
        }
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        HttpTaskSpec spec = HttpTaskSpec.of(task, allowList);
        HttpRequest request;
        try {
            request = request(spec, task, Templates.values(task, context));
        } catch (IllegalArgumentException e) {
            throw new AxException("HTTP task '" + task.name() + "': the request cannot be built: " + safe(e));
        }
        long start = System.nanoTime();
        CompletableFuture<HttpResponse<BoundedCapture>> exchange =
                client.sendAsync(request, info -> new BoundedBody(settings.maxRecordedBody()));
        HttpResponse<BoundedCapture> response;
        try {
            response = exchange.get();
        } catch (InterruptedException e) {
            exchange.cancel(true); // aborts the exchange and closes its connection
            Thread.currentThread().interrupt();
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                throw new AxException("HTTP " + spec.method() + " timed out after " + task.timeout());
            }
            throw cause instanceof Exception ex ? ex : e;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        int status = response.statusCode();
        String note =
                "HTTP " + status + " in " + millis + " ms; " + response.body().describe("body");
        return spec.success().contains(status)
                ? AxResult.success(note)
                : AxResult.failure(note + " (success is " + spec.success() + ")");
    }

    private HttpRequest request(HttpTaskSpec spec, AxTask task, Map<String, String> values) {
        URI uri = URI.create(Templates.render(spec.url(), values, HttpTaskSpec::encode));
        if (!allowList.allows(uri)) {
            // checked when the task was defined; this guards against a definition that changed under us
            throw new AxException("HTTP task '" + task.name() + "': URL is not under ax.http.allowed-urls");
        }
        UnaryOperator<String> raw = UnaryOperator.identity();
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(task.timeout());
        spec.headers().forEach((name, value) -> builder.header(name, Templates.render(value, values, raw)));
        HttpRequest.BodyPublisher body = spec.body() == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(Templates.render(spec.body(), values, raw));
        return builder.method(spec.method(), body).build();
    }

    /** A client's message about a header may quote its value, which may be a credential: keep only what is safe. */
    private static String safe(IllegalArgumentException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        int colon = message.indexOf(':');
        return colon > 0 ? message.substring(0, colon) : message;
    }

    /** Stops the client's threads; exchanges in flight fail. */
    @Override
    public void close() {
        ioPool.shutdownNow();
    }
}
