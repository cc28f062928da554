package io.ax.sample.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ax.core.AxTask;
import io.ax.core.Rate;
import io.ax.core.TaskLimits;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rows the fault runner's checker judges by: one per task and limit, keyed as the engine keys its permits. */
class LimitsRecorderTest {

    @Test
    void eachTaskHasARowPerLimitItsEngineApplies() {
        List<AxTask> tasks = List.of(
                AxTask.builder("plain").build(),
                AxTask.builder("export").limits(new TaskLimits(2, null)).build(),
                AxTask.builder("debit")
                        .limits(new TaskLimits(0, "${keyPrefix}"))
                        .build(),
                AxTask.builder("pooled").group("limited").build(),
                AxTask.builder("throttled")
                        .limits(new TaskLimits(0, null, Rate.parse("4/1s")))
                        .build(),
                AxTask.builder("unpooled").group("side").build());

        List<LimitsRecorder.Limit> rows =
                LimitsRecorder.of(tasks, g -> Map.of("limited", 2).getOrDefault(g, 0));

        assertEquals(
                List.of(
                        new LimitsRecorder.Limit("export", "task:export", 2),
                        new LimitsRecorder.Limit("debit", "mutex:${keyPrefix}", 1),
                        new LimitsRecorder.Limit("pooled", "group:limited", 2),
                        new LimitsRecorder.Limit("throttled", "rate:task:throttled", 4, Duration.ofSeconds(1))),
                rows);
    }
}
