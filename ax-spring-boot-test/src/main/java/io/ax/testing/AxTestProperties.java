package io.ax.testing;

import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** How AX's test support drives the engine of a test context ({@link AutoConfigureAxTest}). */
@ConfigurationProperties(prefix = "ax.test")
public class AxTestProperties {

    /** Where the test's clock starts; the current time, to the second, when not set. */
    private Instant start;

    /** The longest a call of the tester waits, in real time, for the engine to settle or an instance to end. */
    private Duration await = Duration.ofSeconds(30);

    /**
     * How long the tester waits, in real time, for attempts still running before it moves the clock past them (as a
     * timeout needs the clock to move).
     */
    private Duration patience = Duration.ofSeconds(2);

    public Instant getStart() {
        return start;
    }

    public void setStart(Instant start) {
        this.start = start;
    }

    public Duration getAwait() {
        return await;
    }

    public void setAwait(Duration await) {
        this.await = await;
    }

    public Duration getPatience() {
        return patience;
    }

    public void setPatience(Duration patience) {
        this.patience = patience;
    }
}
