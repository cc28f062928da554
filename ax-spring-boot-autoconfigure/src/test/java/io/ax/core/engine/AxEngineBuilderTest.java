package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder refuses what cannot work when it is given, naming the setting. */
class AxEngineBuilderTest {

    @Test
    void aNegativeShutdownWaitIsRefusedAndNoneIsAccepted() {
        assertThatThrownBy(() -> AxEngine.builder().shutdownAwait(Duration.ofSeconds(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shutdownAwait must not be negative, was PT-5S");
        assertThat(AxEngine.builder().shutdownAwait(Duration.ZERO).shutdownAwait)
                .isZero();
    }
}
