package io.ax.core.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.trigger.CronTrigger;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronFriendlinessTest {

    @ParameterizedTest(name = "''{0}'' suggests ''{1}''")
    @CsvSource(delimiter = '|', textBlock = """
            0 0 12 * *         | 0 0 0 12 * ?
            */5 * * * *        | 0 */5 * * * ?
            30 2 * * 1-5       | 0 30 2 ? * 2-6
            0 9 * * 0          | 0 0 9 ? * 1
            0 9 * * 7          | 0 0 9 ? * 1
            0 9 * * MON,FRI    | 0 0 9 ? * MON,FRI
            0 9 * * */2        | 0 0 9 ? * */2
            0 0 1 JAN *        | 0 0 0 1 JAN ?
            """)
    void aFiveFieldExpressionSuggestsTheSecondsFieldWithTheSameMeaning(String unix, String quartz) {
        assertThatThrownBy(() -> CronExpression.parse(unix))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining("expected 6 or 7 fields but found 5")
                .hasMessageEndingWith("'" + unix + "' has 5 fields; AX cron starts with seconds: '" + quartz + "'");
        // and the suggestion is itself valid
        assertThat(CronExpression.parse(quartz)).isNotNull();
    }

    @Test
    void aFiveFieldExpressionWithBothDayFieldsExplainsWhatQuartzCannotSay() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 1 * 1"))
                .hasMessageContaining("AX cron starts with seconds: '0 0 0 1 * ?'")
                .hasMessageContaining("Quartz needs '?' in one of them")
                .hasMessageContaining("'0 0 0 ? * 1'");
    }

    @Test
    void bothDayFieldsEveryDaySuggestsTheQuestionMark() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 12 * * *"))
                .hasMessage("Invalid cron expression '0 0 12 * * *': exactly one of day-of-month and day-of-week"
                        + " must be '?', but neither is '?' at position 11; put '?' in day-of-month: '0 0 12 ? * *'"
                        + " (or '0 0 12 * * ?')");
    }

    @Test
    void bothDayFieldsRestrictedOffersBothReadings() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 12 1 * MON"))
                .hasMessageContaining("neither is '?'")
                .hasMessageEndingWith("put '?' in the day field that should not count: '0 0 12 1 * ?' (by day of"
                        + " month) or '0 0 12 ? * MON' (by day of week)");
        assertThatThrownBy(() -> CronExpression.parse("0 0 12 1 * *"))
                .hasMessageEndingWith("put '?' in day-of-week: '0 0 12 1 * ?'");
        assertThatThrownBy(() -> CronExpression.parse("0 0 12 * * MON"))
                .hasMessageEndingWith("put '?' in day-of-month: '0 0 12 ? * MON'");
    }

    @Test
    void bothDayFieldsUnspecifiedSuggestsAStar() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 12 ? * ?"))
                .hasMessageContaining("both are '?'")
                .hasMessageEndingWith("put '*' in one of them for every day: '0 0 12 * * ?'");
    }

    @ParameterizedTest(name = "{0} fires like {1}")
    @CsvSource(delimiter = '|', textBlock = """
            @yearly   | 0 0 0 1 1 ?
            @annually | 0 0 0 1 1 ?
            @monthly  | 0 0 0 1 * ?
            @weekly   | 0 0 0 ? * SUN
            @daily    | 0 0 0 * * ?
            @midnight | 0 0 0 * * ?
            @hourly   | 0 0 * * * ?
            @DAILY    | 0 0 0 * * ?
            """)
    void macrosFireLikeTheirExpressionAndKeepTheirName(String macro, String expression) {
        CronExpression parsed = CronExpression.parse(macro);
        CronExpression same = CronExpression.parse(expression);
        Instant t = Instant.parse("2026-02-17T10:15:30Z");
        for (int i = 0; i < 5; i++) {
            Instant next = parsed.next(t, ZoneOffset.UTC).orElseThrow();
            assertThat(next).isEqualTo(same.next(t, ZoneOffset.UTC).orElseThrow());
            t = next;
        }
        assertThat(parsed).hasToString(macro);
    }

    @Test
    void theWeeklyMacroFiresOnSundayMidnight() {
        assertThat(CronExpression.parse("@weekly").next(Instant.parse("2026-02-17T10:15:30Z"), ZoneOffset.UTC))
                .contains(Instant.parse("2026-02-22T00:00:00Z"));
    }

    @Test
    void anUnknownMacroNamesTheOnesThatExist() {
        assertThatThrownBy(() -> CronExpression.parse("@fortnightly"))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining("unknown macro '@fortnightly'")
                .hasMessageContaining("@daily");
    }

    @Test
    void anExpressionThatCanNeverFireParsesAsInQuartzButFailsAsATrigger() {
        assertThat(CronExpression.parse("0 0 0 30 2 ?")).isNotNull();
        assertThatThrownBy(() -> CronTrigger.of("0 0 0 30 2 ?", ZoneOffset.UTC))
                .isInstanceOf(CronParseException.class)
                .hasMessage("Invalid cron expression '0 0 0 30 2 ?': it can never fire: no month of its month field"
                        + " has a day of its day-of-month field (such as February 30)");
        assertThatThrownBy(() -> CronTrigger.of("0 0 0 31 4,6,9,11 ?", ZoneOffset.UTC))
                .hasMessageContaining("can never fire");
        assertThatThrownBy(() -> CronTrigger.of("0 0 0 29 2 ? 2097-2099", ZoneOffset.UTC))
                .hasMessageContaining("can never fire: no time in the years 1970-2099 matches all its fields");
        assertThat(CronTrigger.of("0 0 0 29 2 ?", ZoneOffset.UTC).describe()).contains("0 0 0 29 2 ?");
    }
}
