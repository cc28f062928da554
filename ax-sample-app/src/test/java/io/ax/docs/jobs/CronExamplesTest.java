package io.ax.docs.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.cron.CronExpression;
import io.ax.core.cron.CronParseException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The cron expressions and the start-up errors the jobs guide shows, as the parser reads them. */
class CronExamplesTest {

    private static final ZonedDateTime FROM = ZonedDateTime.of(2026, 12, 1, 8, 0, 0, 0, ZoneId.of("Europe/Berlin"));

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0 0/5 * * * ?         | 2026-12-01T08:05+01:00[Europe/Berlin]",
                "0 30 6 ? * MON-FRI    | 2026-12-02T06:30+01:00[Europe/Berlin]",
                "0 0 9-17 ? * MON-FRI  | 2026-12-01T09:00+01:00[Europe/Berlin]",
                "0 0 0 L * ?           | 2026-12-31T00:00+01:00[Europe/Berlin]",
                "0 0 0 L-2 * ?         | 2026-12-29T00:00+01:00[Europe/Berlin]",
                "0 0 8 15W * ?         | 2026-12-15T08:00+01:00[Europe/Berlin]",
                "0 0 8 LW * ?          | 2026-12-31T08:00+01:00[Europe/Berlin]",
                "0 0 18 ? * 6L         | 2026-12-25T18:00+01:00[Europe/Berlin]",
                "0 0 10 ? * MON#2      | 2026-12-14T10:00+01:00[Europe/Berlin]",
                "0 0 22-2 * * ?        | 2026-12-01T22:00+01:00[Europe/Berlin]",
                "0 0 12 1 JAN,JUL ?    | 2027-01-01T12:00+01:00[Europe/Berlin]",
                "0 0 0 1 1 ? 2027-2029 | 2027-01-01T00:00+01:00[Europe/Berlin]",
                "@daily                | 2026-12-02T00:00+01:00[Europe/Berlin]",
                "@weekly               | 2026-12-06T00:00+01:00[Europe/Berlin]",
            })
    void theGuidesExpressionsFireWhenItSays(String expression, String next) {
        assertThat(CronExpression.parse(expression).requireCanFire().next(FROM)).hasValue(ZonedDateTime.parse(next));
    }

    @ParameterizedTest
    @ValueSource(strings = {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"})
    void theMacrosParse(String macro) {
        assertThat(CronExpression.parse(macro).next(FROM)).isPresent();
    }

    @org.junit.jupiter.api.Test
    void aUnixExpressionGetsItsQuartzTwin() {
        assertThatThrownBy(() -> CronExpression.parse("0 9 * * 1-5"))
                .isInstanceOf(CronParseException.class)
                .hasMessage("Invalid cron expression '0 9 * * 1-5': expected 6 or 7 fields but found 5 at position 11;"
                        + " '0 9 * * 1-5' has 5 fields; AX cron starts with seconds: '0 0 9 ? * 2-6'");
    }

    @org.junit.jupiter.api.Test
    void bothDayFieldsRestrictedSaysWhereTheQuestionMarkGoes() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 12 * * *"))
                .hasMessage("Invalid cron expression '0 0 12 * * *': exactly one of day-of-month and day-of-week must"
                        + " be '?', but neither is '?' at position 11; put '?' in day-of-month: '0 0 12 ? * *' (or"
                        + " '0 0 12 * * ?')");
    }

    @org.junit.jupiter.api.Test
    void anExpressionThatCanNeverFireIsRefused() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 0 30 2 ?").requireCanFire())
                .hasMessageContaining("it can never fire");
    }
}
