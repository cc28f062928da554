package io.ax.core.engine.planning;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ax.core.engine.threads.EngineLog;
import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A flood of missed fire times (every task at once, after a pause or a failover) gives a bounded number of lines. */
class MisfireLogTest {

    private final Logger engineLog = (Logger) LoggerFactory.getLogger(EngineLog.NAME);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final FakeClock clock = new FakeClock(Instant.parse("2026-11-30T12:00:00Z"));
    private final List<Runnable> summaries = new ArrayList<>();
    private final List<Duration> summaryDelays = new ArrayList<>();
    private final MisfireLog log = new MisfireLog(clock, (delay, work) -> {
        summaryDelays.add(delay);
        summaries.add(work);
    });
    private Level levelBefore;

    @BeforeEach
    void capture() {
        levelBefore = engineLog.getLevel();
        engineLog.setLevel(Level.INFO);
        lines.start();
        engineLog.addAppender(lines);
    }

    @AfterEach
    void restore() {
        engineLog.detachAppender(lines);
        engineLog.setLevel(levelBefore);
    }

    @Test
    void tenThousandMissesAtOnceGiveTheFirstFewLinesAndOneSummary() {
        for (int i = 0; i < 10_000; i++) {
            log.missed("sec-" + i, "Task 'sec-" + i + "' missed fire times");
        }

        assertThat(warnings()).hasSize(MisfireLog.LINES_PER_WINDOW);
        assertThat(warnings().get(0)).isEqualTo("Task 'sec-0' missed fire times");
        assertThat(summaries).as("one summary, whatever the count").hasSize(1);
        assertThat(summaryDelays.get(0)).isEqualTo(MisfireLog.WINDOW);

        clock.advance(MisfireLog.WINDOW);
        summaries.get(0).run();

        assertThat(warnings()).hasSize(MisfireLog.LINES_PER_WINDOW + 1);
        assertThat(warnings().get(MisfireLog.LINES_PER_WINDOW))
                .startsWith("9,990 more task(s) missed fire times within 10 s, e.g. [sec-10, sec-11, sec-12, sec-13,"
                        + " sec-14]");
    }

    @Test
    void aFewMissesAreEachLoggedAndNeedNoSummary() {
        for (int i = 0; i < MisfireLog.LINES_PER_WINDOW; i++) {
            log.missed("t" + i, "Task 't" + i + "' missed fire times");
        }

        assertThat(warnings()).hasSize(MisfireLog.LINES_PER_WINDOW);
        assertThat(summaries).isEmpty();
    }

    @Test
    void theNextWindowLogsItsOwnFirstLinesAgain() {
        for (int i = 0; i < MisfireLog.LINES_PER_WINDOW + 3; i++) {
            log.missed("a" + i, "Task 'a" + i + "' missed fire times");
        }
        clock.advance(MisfireLog.WINDOW);
        summaries.get(0).run();

        log.missed("late", "Task 'late' missed fire times");

        assertThat(warnings()).last().isEqualTo("Task 'late' missed fire times");
        assertThat(summaries).hasSize(1);
    }

    @Test
    void aQuietSpellOpensANewWindowWithoutASummary() {
        for (int i = 0; i < MisfireLog.LINES_PER_WINDOW; i++) {
            log.missed("b" + i, "Task 'b" + i + "' missed fire times");
        }
        clock.advance(MisfireLog.WINDOW.plusSeconds(1));

        log.missed("again", "Task 'again' missed fire times");

        assertThat(warnings()).hasSize(MisfireLog.LINES_PER_WINDOW + 1);
        assertThat(summaries).isEmpty();
    }

    private List<String> warnings() {
        return lines.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
