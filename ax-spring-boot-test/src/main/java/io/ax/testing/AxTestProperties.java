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

    /** {@return where the test's clock starts ({@code ax.test.start}); null for the current time, to the second} */
    public Instant getStart() {
        return start;
    }

    /**
     * Sets where the test's clock starts.
     *
     * @param start the instant, or null for the current time, to the second
     */
    public void setStart(Instant start) {
        this.start = start;
    }

    /** {@return the longest a call of the tester waits, in real time ({@code ax.test.await}); default 30 s} */
    public Duration getAwait() {
        return await;
    }

    /**
     * Sets the longest a call of the tester waits, in real time.
     *
     * @param await a positive duration; the tester refuses any other when the test context starts
     */
    public void setAwait(Duration await) {
        this.await = await;
    }

    /**
     * {@return how long the tester waits, in real time, for attempts still running before it moves the clock past them
     * ({@code ax.test.patience}); default 2 s}
     */
    public Duration getPatience() {
        return patience;
    }

    /**
     * Sets how long the tester waits, in real time, for attempts still running before it moves the clock past them.
     *
     * @param patience a positive duration; the tester refuses any other when the test context starts
     */
    public void setPatience(Duration patience) {
        this.patience = patience;
    }
}
