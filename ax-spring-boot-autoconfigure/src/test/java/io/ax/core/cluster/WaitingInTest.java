package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WaitingInTest {

    private static StackTraceElement frame(String cls, String method) {
        return new StackTraceElement(cls, method, null, -1);
    }

    @Test
    void aHeartbeatThatWaitsForAPooledConnectionNamesThePoolAndTheCall() {
        StackTraceElement[] stack = {
            frame("jdk.internal.misc.Unsafe", "park"),
            frame("java.util.concurrent.locks.LockSupport", "parkNanos"),
            frame("java.util.concurrent.SynchronousQueue", "poll"),
            frame("com.zaxxer.hikari.util.ConcurrentBag", "borrow"),
            frame("com.zaxxer.hikari.pool.HikariPool", "getConnection"),
            frame("org.springframework.jdbc.core.JdbcTemplate", "update"),
            frame("io.ax.jdbc.JdbcNodeRegistry", "heartbeat"),
            frame("io.ax.core.cluster.Membership", "round"),
        };
        assertThat(WaitingIn.describe(stack))
                .isEqualTo("Unsafe.park < ConcurrentBag.borrow < JdbcNodeRegistry.heartbeat");
    }

    @Test
    void aFrameNamedTwiceIsSaidOnce() {
        StackTraceElement[] inDriver = {
            frame("org.postgresql.core.PGStream", "receiveChar"), frame("io.ax.jdbc.JdbcNodeRegistry", "heartbeat"),
        };
        assertThat(WaitingIn.describe(inDriver)).isEqualTo("PGStream.receiveChar < JdbcNodeRegistry.heartbeat");
        StackTraceElement[] inAx = {frame("io.ax.jdbc.JdbcNodeRegistry", "heartbeat")};
        assertThat(WaitingIn.describe(inAx)).isEqualTo("JdbcNodeRegistry.heartbeat");
        StackTraceElement[] idle = {frame("jdk.internal.misc.Unsafe", "park"), frame("java.lang.Thread", "run")};
        assertThat(WaitingIn.describe(idle)).isEqualTo("Unsafe.park");
        assertThat(WaitingIn.describe(new StackTraceElement[0])).isNull();
    }

    @Test
    void aLiveThreadIsReadWhereItWaits() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread waiting = new Thread(
                () -> {
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "waiting-in-test");
        waiting.start();
        try {
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> waiting.getState() == Thread.State.TIMED_WAITING);
            assertThat(WaitingIn.of(waiting)).startsWith("Unsafe.park < ").contains(" < WaitingInTest.lambda$");
        } finally {
            release.countDown();
            waiting.join(10_000);
        }
        assertThat(WaitingIn.of(waiting)).as("a thread that ended").isNull();
        assertThat(WaitingIn.of(null)).isNull();
    }
}
