package io.ax.core.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronExpressionTest {

    @ParameterizedTest(name = "''{0}'' in {1} after {2} fires at {3}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            # plain values, lists, ranges and steps
            0 0 12 * * ?            | UTC | 2024-01-01T00:00:00Z | 2024-01-01T12:00:00Z
            0 0 12 * * ?            | UTC | 2024-01-01T12:00:00Z | 2024-01-02T12:00:00Z
            */15 * * * * ?          | UTC | 2024-01-01T00:00:07Z | 2024-01-01T00:00:15Z
            0 5,35 * * * ?          | UTC | 2024-01-01T10:36:00Z | 2024-01-01T11:05:00Z
            0 0 9-17 * * ?          | UTC | 2024-01-01T17:30:00Z | 2024-01-02T09:00:00Z
            0 0 22-2 * * ?          | UTC | 2024-01-01T02:30:00Z | 2024-01-01T22:00:00Z
            0 0 22-2 * * ?          | UTC | 2024-01-01T23:30:00Z | 2024-01-02T00:00:00Z
            0 10/20 * * * ?         | UTC | 2024-01-01T10:51:00Z | 2024-01-01T11:10:00Z
            0 0-30/10 * * * ?       | UTC | 2024-01-01T10:31:00Z | 2024-01-01T11:00:00Z
            0 50-10/10 * * * ?      | UTC | 2024-01-01T10:51:00Z | 2024-01-01T11:00:00Z
            0 50-10/10 * * * ?      | UTC | 2024-01-01T11:00:00Z | 2024-01-01T11:10:00Z
            0 0 0 1 JAN-MAR ?       | UTC | 2024-03-02T00:00:00Z | 2025-01-01T00:00:00Z
            0 0 0 1 nov-feb ?       | UTC | 2024-03-01T00:00:00Z | 2024-11-01T00:00:00Z
            0 0 0 1 */5 ?           | UTC | 2024-01-01T00:00:00Z | 2024-06-01T00:00:00Z
            0 0 0 28-3 * ?          | UTC | 2024-02-03T00:00:00Z | 2024-02-28T00:00:00Z
            0 0 0 28-3 * ?          | UTC | 2024-02-29T00:00:00Z | 2024-03-01T00:00:00Z
            # day-of-week: names, numbers (1 = Sunday), wrap-around, steps
            0 0 0 ? * MON-FRI       | UTC | 2024-01-05T12:00:00Z | 2024-01-08T00:00:00Z
            0 0 0 ? * fri-mon       | UTC | 2024-01-08T12:00:00Z | 2024-01-12T00:00:00Z
            0 0 0 ? * 1             | UTC | 2024-01-01T00:00:00Z | 2024-01-07T00:00:00Z
            0 0 0 ? * 2/2           | UTC | 2024-01-01T00:00:00Z | 2024-01-03T00:00:00Z
            0 0 0 ? * L             | UTC | 2024-01-01T00:00:00Z | 2024-01-06T00:00:00Z
            # L, L-n, W, LW in day-of-month; leap years
            0 0 0 L * ?             | UTC | 2024-02-01T00:00:00Z | 2024-02-29T00:00:00Z
            0 0 0 L * ?             | UTC | 2023-02-01T00:00:00Z | 2023-02-28T00:00:00Z
            0 0 0 29 2 ?            | UTC | 2024-03-01T00:00:00Z | 2028-02-29T00:00:00Z
            0 0 0 29 FEB ? 2097-2099| UTC | 2024-03-01T00:00:00Z | none
            0 0 0 L-3 * ?           | UTC | 2024-02-01T00:00:00Z | 2024-02-26T00:00:00Z
            0 0 0 L-30 * ?          | UTC | 2024-02-01T00:00:00Z | 2024-03-01T00:00:00Z
            0 0 0 L,5 * ?           | UTC | 2024-02-06T00:00:00Z | 2024-02-29T00:00:00Z
            0 0 0 LW * ?            | UTC | 2024-03-01T00:00:00Z | 2024-03-29T00:00:00Z
            0 0 0 L-1W * ?          | UTC | 2024-06-01T00:00:00Z | 2024-06-28T00:00:00Z
            0 0 0 15W * ?           | UTC | 2024-06-01T00:00:00Z | 2024-06-14T00:00:00Z
            0 0 0 1W * ?            | UTC | 2024-05-31T00:00:00Z | 2024-06-03T00:00:00Z
            0 0 0 31W * ?           | UTC | 2024-04-01T00:00:00Z | 2024-05-31T00:00:00Z
            0 0 0 30W 2 ?           | UTC | 2024-01-01T00:00:00Z | none
            # nL and n#k in day-of-week
            0 0 0 ? * 6L            | UTC | 2024-01-01T00:00:00Z | 2024-01-26T00:00:00Z
            0 0 0 ? * 6#3           | UTC | 2024-01-01T00:00:00Z | 2024-01-19T00:00:00Z
            0 0 0 ? * SUN#1         | UTC | 2024-01-01T00:00:00Z | 2024-01-07T00:00:00Z
            0 0 0 ? * 2#5           | UTC | 2024-02-01T00:00:00Z | 2024-04-29T00:00:00Z
            0 0 0 ? * 1L            | UTC | 2024-03-31T00:00:00Z | 2024-04-28T00:00:00Z
            # year field and expressions that never fire
            0 0 0 1 1 ? 2030        | UTC | 2024-06-01T00:00:00Z | 2030-01-01T00:00:00Z
            0 0 0 1 1 ? 2025/5      | UTC | 2026-01-01T00:00:00Z | 2030-01-01T00:00:00Z
            0 0 0 1 1 ? 2000-2010   | UTC | 2024-06-01T00:00:00Z | none
            0 0 0 30 FEB ?          | UTC | 2024-01-01T00:00:00Z | none
            0 0 0 31 2,4,6,9,11 ?   | UTC | 2024-01-01T00:00:00Z | none
            0 0 12 * * ?            | UTC | 2099-12-31T12:00:00Z | none
            # zones with odd offsets: the expression is read on the wall clock
            0 0 9 * * ?             | Asia/Kolkata | 2024-01-01T00:00:00Z | 2024-01-01T03:30:00Z
            # America/New_York: 2024-03-10 02:00 -> 03:00, 2024-11-03 02:00 -> 01:00
            0 30 2 * * ?            | America/New_York | 2024-03-10T05:00:00Z | 2024-03-11T06:30:00Z
            0 30 * * * ?            | America/New_York | 2024-03-10T06:30:00Z | 2024-03-10T07:30:00Z
            0 30 1 * * ?            | America/New_York | 2024-11-03T04:00:00Z | 2024-11-03T06:30:00Z
            0 */20 * * * ?          | America/New_York | 2024-11-03T04:40:00Z | 2024-11-03T06:00:00Z
            0 0 1 * * ?             | America/New_York | 2024-11-03T05:00:00Z | 2024-11-04T06:00:00Z
            # Europe/Berlin: 2024-03-31 02:00 -> 03:00, 2024-10-27 03:00 -> 02:00
            0 30 2 * * ?            | Europe/Berlin | 2024-03-30T11:00:00Z | 2024-04-01T00:30:00Z
            0 30 2 * * ?            | Europe/Berlin | 2024-10-26T10:00:00Z | 2024-10-27T01:30:00Z
            0 0 * * * ?             | Europe/Berlin | 2024-10-26T23:30:00Z | 2024-10-27T01:00:00Z
            0 0 3 * * ?             | Europe/Berlin | 2024-03-30T12:00:00Z | 2024-03-31T01:00:00Z
            # Pacific/Chatham: 2024-09-29 02:45 -> 03:45; as in Quartz, the gap hides 03:50 that day
            0 50 3 * * ?            | Pacific/Chatham | 2024-09-27T23:15:00Z | 2024-09-29T14:05:00Z
            # America/Sao_Paulo: 2018-11-04 00:00 -> 01:00, midnight does not exist
            0 0 0 * * ?             | America/Sao_Paulo | 2018-11-03T15:00:00Z | 2018-11-05T02:00:00Z
            0 30 * * * ?            | America/Sao_Paulo | 2018-11-04T02:45:00Z | 2018-11-04T03:30:00Z
            """)
    void firesAtTheNextMatchingTime(String expression, String zone, Instant after, Instant expected) {
        Optional<ZonedDateTime> next = CronExpression.parse(expression).next(after.atZone(ZoneId.of(zone)));

        assertThat(next.map(ZonedDateTime::toInstant)).isEqualTo(Optional.ofNullable(expected));
        next.ifPresent(time -> assertThat(time.getZone()).isEqualTo(ZoneId.of(zone)));
    }

    @Test
    void returnsTheFireTimeInTheZoneOfTheStartAndAgreesWithTheInstantVariant() {
        CronExpression cron = CronExpression.parse("0 0 12 * * ?");
        ZonedDateTime after = ZonedDateTime.parse("2024-05-01T08:00:00+02:00[Europe/Berlin]");

        assertThat(cron.next(after)).contains(ZonedDateTime.parse("2024-05-01T12:00:00+02:00[Europe/Berlin]"));
        assertThat(cron.next(after.toInstant(), after.getZone())).contains(Instant.parse("2024-05-01T10:00:00Z"));
    }

    @Test
    void firesStrictlyAfterAStartWithAFractionOfASecond() {
        CronExpression cron = CronExpression.parse("* * * * * ?");

        assertThat(cron.next(ZonedDateTime.parse("2024-01-01T00:00:00.999Z")))
                .contains(ZonedDateTime.parse("2024-01-01T00:00:01Z"));
    }

    @Test
    void keepsTheOriginalTextAndComparesByIt() {
        CronExpression cron = CronExpression.parse("0 0 12 ? * mon-fri");

        assertThat(cron).hasToString("0 0 12 ? * mon-fri");
        assertThat(cron).isEqualTo(CronExpression.parse("0 0 12 ? * mon-fri"));
        assertThat(cron).hasSameHashCodeAs(CronExpression.parse("0 0 12 ? * mon-fri"));
        assertThat(cron).isNotEqualTo(CronExpression.parse("0 0 12 ? * MON-FRI"));
    }

    // ---- deliberate differences from Quartz 2.5.2 (excluded, and only these, from the differential test)

    @Test
    void weekdayNearestToASundayStillFiresWhenTheSearchStartsAfterTheSunday() {
        // 2024-09-15 is a Sunday, so 15W is Monday the 16th. Quartz 2.5.2 only considers W days on or
        // after the search day, so a search starting on the 16th skips to October 15th.
        CronExpression cron = CronExpression.parse("0 0 12 15W * ?");

        assertThat(cron.next(ZonedDateTime.parse("2024-09-16T00:00:00Z")))
                .contains(ZonedDateTime.parse("2024-09-16T12:00:00Z"));
    }

    @Test
    void weekdayRuleDayStartsAtMidnight() {
        // Quartz 2.5.2 keeps the time of day of the search start (13:08) when it moves to the LW day
        // and so fires first at 14:00; every earlier hour of that day is skipped.
        CronExpression cron = CronExpression.parse("0 0 * LW * ?");

        assertThat(cron.next(ZonedDateTime.parse("1992-07-10T13:08:29Z")))
                .contains(ZonedDateTime.parse("1992-07-31T00:00:00Z"));
    }

    @Test
    void neverFiresAfter2099() {
        // Quartz 2.5.2 searches up to the current year + 100; AX stops with the year field's range.
        CronExpression cron = CronExpression.parse("0 0 0 1 1 ?");

        assertThat(cron.next(ZonedDateTime.parse("2099-01-01T00:00:00Z"))).isEmpty();
    }

    @Test
    void appliesAStepAfterANamedRange() {
        // Quartz 2.5.2 silently drops "/2" after a named range and fires Monday to Friday.
        CronExpression cron = CronExpression.parse("0 0 12 ? * MON-FRI/2");

        assertThat(cron.next(ZonedDateTime.parse("2024-01-01T12:00:00Z")))
                .contains(ZonedDateTime.parse("2024-01-03T12:00:00Z"));
    }

    @ParameterizedTest(name = "''{0}'' is rejected although Quartz accepts it")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            */0 * * * * ?          | seconds step 0 out of range 1-59
            0 0-59/60 * * * ?      | minutes step 60 out of range 1-59
            0 0 12 ? * 2-5L        | unexpected character '-' in day-of-week
            0 0 12 ? * 6#3,2       | 'L' and '#' cannot be combined with other day-of-week values
            0 0 12 ? * L-3         | unexpected character '-' in day-of-week
            0 0 12 * * ? 2150      | year value 2150 out of range 1970-2099
            """)
    void rejectsWhatQuartzSilentlyMisreads(String expression, String message) {
        // Quartz 2.5.2 ignores the trailing characters, treats a step of 0 as 1 or as no step, and
        // accepts years that can never fire. Rejecting them tells the user at once.
        assertThatThrownBy(() -> CronExpression.parse(expression))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining(message);
    }

    // ---- invalid expressions

    @ParameterizedTest(name = "''{0}'' is rejected: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            0 0 25 * * ?             | hours value 25 out of range 0-23 at position 4
            0 60 0 * * ?             | minutes value 60 out of range 0-59 at position 2
            0 0 12 32 * ?            | day-of-month value 32 out of range 1-31 at position 7
            0 0 12 0 * ?             | day-of-month value 0 out of range 1-31 at position 7
            0 0 12 1 13 ?            | month value 13 out of range 1-12 at position 9
            0 0 12 ? * 8             | day-of-week value 8 out of range 1-7 at position 11
            0 0 12 ? * 0             | day-of-week value 0 out of range 1-7 at position 11
            0 0 12 * * ? 1969        | year value 1969 out of range 1970-2099 at position 13
            0 0 12 * * ? 2030-2020   | year range 2030-2020 ends before it starts
            0 0 12 ? * FOO           | invalid day-of-week name 'FOO' at position 11
            0 0 12 1 FOO ?           | invalid month name 'FOO' at position 9
            0 0 12 * *               | expected 6 or 7 fields but found 5 at position 10
            0 0 12 * * ? 2020 x      | expected 6 or 7 fields but found 8 at position 18
            0 0 12 * * *             | exactly one of day-of-month and day-of-week must be '?', but neither is '?'
            0 0 12 ? * ?             | exactly one of day-of-month and day-of-week must be '?', but both are '?'
            0 0 12 ?,1 * ?           | '?' must stand alone in day-of-month at position 7
            ? 0 12 * * ?             | '?' is only allowed in day-of-month or day-of-week, not in seconds at position 0
            */0 * * * * ?            | seconds step 0 out of range 1-59 at position 2
            0 0 */24 * * ?           | hours step 24 out of range 1-23 at position 6
            0 0 12 ? * 6#6           | occurrence after '#' 6 out of range 1-5 at position 13
            0 0 12 L-31 * ?          | offset from the last day 31 out of range 0-30 at position 9
            0 0 12 ? * L,2           | 'L' and '#' cannot be combined with other day-of-week values at position 11
            0 0 12 ? * 6#2,3#1       | 'L' and '#' cannot be combined with other day-of-week values at position 11
            0 0 12 5L * ?            | unexpected character 'L' in day-of-month at position 8
            0 0 12 ? * 5W            | unexpected character 'W' in day-of-week at position 12
            0 0 12 1,,2 * ?          | day-of-month has an empty list element at position 9
            0 0 12 1- * ?            | day-of-month value is missing at position 9
            0 0 1X * * ?             | unexpected character 'X' in hours at position 5
            """)
    void rejectsInvalidExpressionsNamingTheProblem(String expression, String message) {
        assertThatThrownBy(() -> CronExpression.parse(expression))
                .isInstanceOf(CronParseException.class)
                .hasMessageStartingWith("Invalid cron expression '" + expression + "': ")
                .hasMessageContaining(message);
    }

    @Test
    void exposesTheExpressionFieldAndPositionOfAnError() {
        assertThatThrownBy(() -> CronExpression.parse("0 0 25 * * ?"))
                .isInstanceOfSatisfying(CronParseException.class, e -> {
                    assertThat(e.expression()).isEqualTo("0 0 25 * * ?");
                    assertThat(e.field()).isEqualTo("hours");
                    assertThat(e.position()).isEqualTo(4);
                    assertThat(e)
                            .hasMessage(
                                    "Invalid cron expression '0 0 25 * * ?': hours value 25 out of range 0-23 at position 4");
                });
    }

    @Test
    void rejectsNullAndBlankExpressionsWithoutAField() {
        assertThatThrownBy(() -> CronExpression.parse(null)).isInstanceOfSatisfying(CronParseException.class, e -> {
            assertThat(e.field()).isNull();
            assertThat(e.position()).isEqualTo(-1);
            assertThat(e).hasMessage("Invalid cron expression null: expression must not be null");
        });
        assertThatThrownBy(() -> CronExpression.parse("   "))
                .isInstanceOfSatisfying(
                        CronParseException.class, e -> assertThat(e.field()).isNull());
    }
}
