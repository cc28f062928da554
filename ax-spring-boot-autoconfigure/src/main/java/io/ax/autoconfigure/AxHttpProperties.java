package io.ax.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** Settings of the HTTP executor (task type HTTP), under {@code ax.http}. */
@ConfigurationProperties("ax.http")
public class AxHttpProperties {

    /**
     * URL prefixes HTTP tasks may call (scheme, host, port and a path at a segment boundary), e.g.
     * https://api.example.com/v1; a task calling anything else fails at start-up. Empty allows none.
     */
    private List<String> allowedUrls = new ArrayList<>();

    /** How much of a response body is recorded on the instance; the rest is read and dropped. */
    private DataSize maxRecordedBody = DataSize.ofKilobytes(4);

    /** How long opening a connection may take; the task's timeout bounds the whole exchange. */
    private Duration connectTimeout = Duration.ofSeconds(5);

    /** Threads of the HTTP client's own executor, which completes exchanges. */
    private int ioThreads = 2;

    public List<String> getAllowedUrls() {
        return allowedUrls;
    }

    public void setAllowedUrls(List<String> allowedUrls) {
        this.allowedUrls = allowedUrls;
    }

    public DataSize getMaxRecordedBody() {
        return maxRecordedBody;
    }

    public void setMaxRecordedBody(DataSize maxRecordedBody) {
        this.maxRecordedBody = maxRecordedBody;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public int getIoThreads() {
        return ioThreads;
    }

    public void setIoThreads(int ioThreads) {
        this.ioThreads = ioThreads;
    }
}
