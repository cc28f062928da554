package io.ax.testing.app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxScheduler;
import io.ax.testing.AutoConfigureAxTest;
import io.ax.testing.AxTester;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** A wait that cannot end fails within its bound, saying what it waited for and what the engine was doing. */
@SpringBootTest(
        classes = KitApplication.class,
        properties = {
            // bounds long enough for an engine on a busy machine to settle, and a patience longer than them
            "ax.test.await=2s",
            "ax.test.patience=10s",
            "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
        })
@AutoConfigureAxTest
class AxTesterBoundsTest {

    @Autowired
    AxTester ax;

    @Autowired
    AxScheduler scheduler;

    @Autowired
    KitJobs jobs;

    @Test
    void awaitingAnInstanceAYearAheadFailsWithinTheBoundNamingTheInstance() {
        String id = scheduler.schedule("remind", Duration.ofDays(365), null);

        assertThatThrownBy(() -> ax.awaitEnd(id))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Instance " + id + " has not ended within PT2S (ax.test.await)")
                .hasMessageContaining("SCHEDULED");
    }

    @Test
    void aHandlerBlockedLongerThanTheBoundFailsAWaitNamingTheBusyPools() {
        scheduler.triggerNow("stuck");
        try {
            assertThatThrownBy(() -> ax.awaitQuiet())
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("awaitQuiet(): the engine did not settle within PT2S (ax.test.await)")
                    .hasMessageContaining("1 attempt(s) running; busy: [pools]");
        } finally {
            jobs.release.countDown(); // the other test's waits find the pool free
        }
    }
}
