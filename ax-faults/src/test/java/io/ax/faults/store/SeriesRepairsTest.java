package io.ax.faults.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesRepairsTest {

    @Test
    void sumsTheRepairsEveryWarnLineCounts() {
        List<String> lines = List.of(
                "2026-12-07T11:31:18.054Z  WARN 1 --- [ax-leader1] io.ax.core.engine.AxEngine : AX found 1,443 task(s)"
                        + " whose series had stopped and gave them their next fire again: [sec-1000, sec-1002]",
                "2026-12-07T11:31:19.001Z  INFO 1 --- [main] io.ax.core.engine.AxEngine : something else",
                "2026-12-07T11:31:28.054Z  WARN 1 --- [ax-leader1] io.ax.core.engine.AxEngine : AX found 2 task(s)"
                        + " whose series had stopped and gave them their next fire again: [a, b]");
        assertEquals(1_445, SeriesRepairs.count(lines));
        assertEquals(0, SeriesRepairs.count(List.of("nothing repaired")));
    }
}
