package io.ax.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.test.context.TestPropertySource;

/**
 * Runs the AX engine of a {@code @SpringBootTest} on a clock that only the test moves, driven by an {@link AxTester}
 * to inject:
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureAxTest
 * class ReportJobTest {
 *     @Autowired AxTester ax;
 *
 *     @Test
 *     void theReportRunsAtTwo() {
 *         ax.advance(Duration.ofHours(3));
 *         assertThat(ax.lastEnded("report")).succeeded();
 *     }
 * }
 * }</pre>
 *
 * <p>The engine is the application's, with its tasks, store and executors; only time is the test's. For that, the
 * test's engine keeps every scheduled instance in its timer (the prefetch window spans years) and its leader lease
 * lasts as long (the lease is measured on the test's clock, which may jump an hour in one call). So give each test
 * context a database of its own (an embedded one with a unique name): a second engine on the same tables would wait
 * for that lease.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration(AxTestAutoConfiguration.class)
@TestPropertySource(
        properties = {
            "ax.prefetch.window=" + AutoConfigureAxTest.YEARS,
            "ax.cluster.lease=" + AutoConfigureAxTest.YEARS,
            "ax.cluster.ack-timeout=" + AutoConfigureAxTest.ACK_YEARS
        })
public @interface AutoConfigureAxTest {

    /** What "for ever" is in a test: ten years of the test's clock. */
    String YEARS = "3650d";

    /** Just below the lease, as the cluster's settings require. */
    String ACK_YEARS = "3649d";
}
