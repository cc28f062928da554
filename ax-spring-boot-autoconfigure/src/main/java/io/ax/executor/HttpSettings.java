package io.ax.executor;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the {@link HttpExecutor}.
 *
 * @param allowedUrls the URL prefixes tasks may call; empty allows none (see {@link HttpExecutor} for the matching)
 * @param maxRecordedBody how many bytes of a response body are recorded on the instance; the rest is read and
 *     dropped
 * @param connectTimeout how long opening a connection may take (the task's timeout bounds the whole exchange)
 * @param ioThreads threads of the client's own executor, which completes exchanges (named {@code ax-http-N})
 */
public record HttpSettings(List<String> allowedUrls, int maxRecordedBody, Duration connectTimeout, int ioThreads) {

    public HttpSettings {
        allowedUrls = List.copyOf(Objects.requireNonNull(allowedUrls, "allowedUrls"));
        if (maxRecordedBody < 0) {
            throw new IllegalArgumentException("ax.http.max-recorded-body must be >= 0, was " + maxRecordedBody);
        }
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (connectTimeout.isZero() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("ax.http.connect-timeout must be positive, was " + connectTimeout);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ax.http.io-threads must be >= 1, was " + ioThreads);
        }
    }
}
