package io.ax.core.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.cron.CronExpression;
import io.ax.core.cron.CronParseException;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class CronTriggerTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aSpringTriggerFiresAtSpringsTimesAndSaysItIsSpringCron() {
        CronTrigger spring = CronTrigger.ofSpring("0 30 2 * * *", BERLIN);

        assertThat(spring.expression().syntax()).isEqualTo(CronExpression.Syntax.SPRING);
        assertThat(spring.describe()).isEqualTo("Spring cron '0 30 2 * * *' in Europe/Berlin");
        assertThat(spring).hasToString("Spring cron '0 30 2 * * *' in Europe/Berlin");
        // the wall time that summer time's end repeats fires at both of its instants, as in Spring
        Instant first =
                spring.firstFireTime(Instant.parse("2024-10-26T12:00:00Z")).orElseThrow();
        assertThat(first).isEqualTo(Instant.parse("2024-10-27T00:30:00Z"));
        assertThat(spring.nextFireTime(first, first.plusSeconds(5))).contains(Instant.parse("2024-10-27T01:30:00Z"));
    }

    @Test
    void aQuartzTriggerIsDescribedAsBefore() {
        CronTrigger quartz = CronTrigger.of("0 30 2 * * ?", BERLIN);

        assertThat(quartz.describe()).isEqualTo("cron '0 30 2 * * ?' in Europe/Berlin");
        assertThat(quartz).hasToString(quartz.describe());
        assertThat(quartz.nextFireTime(Instant.parse("2024-10-27T00:30:00Z"), Instant.parse("2024-10-27T00:30:05Z")))
                .contains(Instant.parse("2024-10-28T01:30:00Z"));
    }

    @Test
    void aSpringExpressionThatIsInvalidOrNeverFiresDefinesNoTrigger() {
        assertThatThrownBy(() -> CronTrigger.ofSpring("0 0 9 ? * 1 2025", BERLIN))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining("Spring's cron has no year field");
        assertThatThrownBy(() -> CronTrigger.ofSpring("0 0 0 31 2 *", BERLIN))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining("it can never fire");
    }

    @Test
    void theSameTextInTheTwoSyntaxesMakesDifferentTriggers() {
        assertThat(CronTrigger.ofSpring("0 0 9 ? * 1", BERLIN)).isNotEqualTo(CronTrigger.of("0 0 9 ? * 1", BERLIN));
        assertThat(CronTrigger.ofSpring("0 0 9 ? * 1", BERLIN)).isEqualTo(CronTrigger.ofSpring("0 0 9 ? * 1", BERLIN));
    }

    @Test
    void aPinnedTriggerFiresFirstAtItsFirstTimeAtOrAfterTheInstantEvenOnceItPassed() {
        CronTrigger pinned =
                CronTrigger.of("0/10 * * * * ?", BERLIN).firstFireFrom(Instant.parse("2024-05-01T10:00:10Z"));

        assertThat(pinned.from()).isEqualTo(Instant.parse("2024-05-01T10:00:10Z"));
        assertThat(pinned.firstFireTime(Instant.parse("2024-05-01T09:00:00Z")))
                .as("ahead: at the instant, which is a time of the expression")
                .contains(Instant.parse("2024-05-01T10:00:10Z"));
        assertThat(pinned.firstFireTime(Instant.parse("2024-05-01T10:00:13Z")))
                .as("passed: still that time, for the engine to plan as a late fire")
                .contains(Instant.parse("2024-05-01T10:00:10Z"));
        assertThat(CronTrigger.of("0/10 * * * * ?", BERLIN)
                        .firstFireFrom(Instant.parse("2024-05-01T10:00:10.001Z"))
                        .firstFireTime(Instant.parse("2024-05-01T10:00:13Z")))
                .as("an instant between two times: the next one")
                .contains(Instant.parse("2024-05-01T10:00:20Z"));
        // after the first fire the series goes on as an unpinned one does
        assertThat(pinned.nextFireTime(Instant.parse("2024-05-01T10:00:10Z"), null))
                .contains(Instant.parse("2024-05-01T10:00:20Z"));
        assertThat(pinned.resumeAfter(Instant.parse("2024-05-01T10:00:10Z"), Instant.parse("2024-05-01T10:00:43Z")))
                .contains(Instant.parse("2024-05-01T10:00:50Z"));
        assertThat(pinned.describe()).isEqualTo("cron '0/10 * * * * ?' in Europe/Berlin from 2024-05-01T10:00:10Z");
        assertThat(pinned).isNotEqualTo(CronTrigger.of("0/10 * * * * ?", BERLIN));
        assertThat(CronTrigger.of("0/10 * * * * ?", BERLIN).from()).isNull();
        assertThatThrownBy(() -> CronTrigger.of("0/10 * * * * ?", BERLIN).firstFireFrom(null))
                .isInstanceOf(NullPointerException.class);
    }
}
