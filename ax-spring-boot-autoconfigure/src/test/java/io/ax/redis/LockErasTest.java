package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Which Redis primaries locks may be taken on, and from when, on a clock driven by hand. */
class LockErasTest {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final String NEVER_PROMOTED = "0000000000000000000000000000000000000000";

    private final AtomicLong now = new AtomicLong(1_000);
    private final LockEras eras = new LockEras(TTL, now::get);

    @Test
    void aPrimaryThatRanForATtlAndWasNeverPromotedIsUsedAtOnce() {
        assertThat(eras.seen("r1", NEVER_PROMOTED, 10)).isZero();
        assertThat(eras.usable()).isEqualTo("r1");
    }

    @Test
    void aPromotedPrimaryIsUsedATtlAfterItWasFirstSeen() {
        assertThat(eras.seen("r2", "r1", 3_600)).isEqualTo(TTL);
        assertThat(eras.usable()).isEmpty();
        now.addAndGet(TTL.toNanos() - 1);
        assertThat(eras.seen("r2", "r1", 3_600)).isEqualTo(Duration.ofNanos(1));
        assertThat(eras.usable()).isEmpty();
        now.incrementAndGet();
        assertThat(eras.usable()).isEqualTo("r2");
    }

    @Test
    void aPrimaryThatStartedLessThanATtlAgoIsUsedATtlAfterItWasFirstSeen() {
        assertThat(eras.seen("r1", NEVER_PROMOTED, 9)).isEqualTo(TTL);
        now.addAndGet(TTL.toNanos());
        assertThat(eras.usable()).isEqualTo("r1");
    }

    @Test
    void theShardsOfAClusterAreKnownSideBySideAndTheOldestAreForgotten() {
        eras.seen("s1", NEVER_PROMOTED, 60);
        eras.seen("s2", NEVER_PROMOTED, 60);
        assertThat(eras.usable()).isEqualTo("s1,s2");
        for (int i = 0; i < 100; i++) {
            eras.seen("old-" + i, NEVER_PROMOTED, 60);
        }
        assertThat(eras.known()).hasSize(64).doesNotContain("s1", "s2");
    }
}
