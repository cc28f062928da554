package io.ax.docs.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxClockJumpEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClockJumpAlarmTest {

    @Test
    void aJumpBackwardsIsToldWithItsSizeAndThePause() {
        List<String> told = new ArrayList<>();
        ClockJumpAlarm alarm = new ClockJumpAlarm(told::add);

        alarm.onClockJump(new AxClockJumpEvent(Duration.ofSeconds(-3), Instant.now(), Duration.ofSeconds(2)));

        assertThat(told)
                .containsExactly(
                        "The clock of this node jumped backwards by 3000 ms; AX's trigger decisions wait 2000 ms");
    }
}
