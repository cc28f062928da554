package io.ax.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TriggerWordsTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void intervalsAreSaidInTheirLargestWholeUnit() {
        assertThat(TriggerWords.of(IntervalTrigger.fixedRate(Duration.ofSeconds(5), Duration.ZERO)))
                .isEqualTo("every 5 seconds");
        assertThat(TriggerWords.of(IntervalTrigger.fixedDelay(Duration.ofMinutes(1), Duration.ofSeconds(2))))
                .isEqualTo("every 1 minute after the previous run ends, the first 2 seconds after start");
        assertThat(TriggerWords.of(IntervalTrigger.fixedRate(Duration.ofMillis(250), Duration.ZERO)))
                .isEqualTo("every 250 milliseconds");
        assertThat(TriggerWords.of(IntervalTrigger.fixedRate(Duration.ofSeconds(90), Duration.ZERO)))
                .isEqualTo("every 90 seconds");
    }

    @Test
    void commonCronShapesAreSaidInWordsWithTheirZone() {
        assertThat(TriggerWords.of(CronTrigger.of("0/5 * * * * ?", ZoneOffset.UTC)))
                .isEqualTo("every 5 seconds, Z");
        assertThat(TriggerWords.of(CronTrigger.of("0 0/15 * * * ?", BERLIN)))
                .isEqualTo("every 15 minutes, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("0 0 0/2 * * ?", BERLIN))).isEqualTo("every 2 hours, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("0 0 2 * * ?", BERLIN)))
                .isEqualTo("at 02:00 every day, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("30 15 9 ? * MON-FRI", BERLIN)))
                .isEqualTo("at 09:15:30 on weekdays, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("0 0 6 ? * SUN", BERLIN)))
                .isEqualTo("at 06:00 every Sunday, Europe/Berlin");
    }

    @Test
    void theMacrosOfUnixCronAreSaidInWords() {
        assertThat(TriggerWords.of(CronTrigger.of("@hourly", ZoneId.of("UTC"))))
                .isEqualTo("every hour, on the hour, UTC");
        assertThat(TriggerWords.of(CronTrigger.of("@daily", BERLIN))).isEqualTo("at 00:00 every day, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("@weekly", BERLIN)))
                .isEqualTo("at 00:00 every Sunday, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("@monthly", BERLIN)))
                .isEqualTo("at 00:00 on the 1st of every month, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.of("@yearly", BERLIN)))
                .isEqualTo("at 00:00 on 1 January every year, Europe/Berlin");
    }

    @Test
    void springExpressionsOfTheCommonShapesAreSaidInWordsAndAnyOtherIsNamedSpring() {
        assertThat(TriggerWords.of(CronTrigger.ofSpring("*/5 * * * * *", BERLIN)))
                .isEqualTo("every 5 seconds, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.ofSpring("0 30 2 * * MON-FRI", BERLIN)))
                .isEqualTo("at 02:30 on weekdays, Europe/Berlin");
        assertThat(TriggerWords.of(CronTrigger.ofSpring("@weekly", BERLIN)))
                .isEqualTo("at 00:00 every Sunday, Europe/Berlin");
        // day 1 is Monday in Spring's syntax and Sunday in Quartz's: never worded from the number
        assertThat(TriggerWords.of(CronTrigger.ofSpring("0 0 9 * * 1", BERLIN)))
                .isEqualTo("Spring cron '0 0 9 * * 1' in Europe/Berlin");
    }

    @Test
    void anyOtherCronKeepsItsExactText() {
        assertThat(TriggerWords.of(CronTrigger.of("0 15 10 ? * 6L", BERLIN))).contains("0 15 10 ? * 6L");
        assertThat(TriggerWords.of(CronTrigger.of("0 0 12 1W * ?", BERLIN))).contains("0 0 12 1W * ?");
    }
}
