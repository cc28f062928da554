package io.ax.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RateTest {

    @ParameterizedTest
    @CsvSource({
        "100/1m, 100, PT1M, 100/1m",
        "5/s, 5, PT1S, 5/1s",
        " 20 / 500ms , 20, PT0.5S, 20/500ms",
        "1/2h, 1, PT2H, 1/2h"
    })
    void readsCountAndWindow(String text, int permits, Duration window, String written) {
        Rate rate = Rate.parse(text);
        assertThat(rate).isEqualTo(new Rate(permits, window));
        assertThat(rate.toString()).isEqualTo(written);
        assertThat(Rate.parse(rate.toString())).isEqualTo(rate);
    }

    @ParameterizedTest
    @ValueSource(strings = {"100", "100/", "/1m", "100/1y", "-1/1m", "100 per minute"})
    void refusesWhatIsNoRate(String text) {
        assertThatThrownBy(() -> Rate.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not <count>/<window>");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0/1m", "5/0s"})
    void refusesAnEmptyRate(String text) {
        assertThatThrownBy(() -> Rate.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rate");
    }
}
