package io.ax.core.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each construct of Spring's cron syntax and each kind of daylight-saving change, by hand: every case states the
 * fire times, and checks that Spring's own {@code CronExpression} finds the same ones.
 */
class SpringCronExpressionTest {

    @ParameterizedTest(name = "''{0}'' in {1} after {2} fires at {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # values, lists, ranges and steps; a step after one value runs to the end of the field
            0 0 12 * * *       | UTC | 2024-01-01T00:00    | 2024-01-01T12:00Z 2024-01-02T12:00Z
            */15 * * * * *     | UTC | 2024-01-01T00:00:07 | 2024-01-01T00:00:15Z 2024-01-01T00:00:30Z
            0 5,35 * * * *     | UTC | 2024-01-01T10:36    | 2024-01-01T11:05Z 2024-01-01T11:35Z
            0 0 9-17 * * *     | UTC | 2024-01-01T17:30    | 2024-01-02T09:00Z
            0 10/20 * * * *    | UTC | 2024-01-01T10:51    | 2024-01-01T11:10Z 2024-01-01T11:30Z 2024-01-01T11:50Z
            0 0-30/10 * * * *  | UTC | 2024-01-01T10:31    | 2024-01-01T11:00Z 2024-01-01T11:10Z
            5/20 * * * * *     | UTC | 2024-01-01T00:00:46 | 2024-01-01T00:01:05Z 2024-01-01T00:01:25Z
            0 0 0 1 JAN-MAR *  | UTC | 2024-03-02T00:00    | 2025-01-01T00:00Z
            0 0 0 1 nov,2 *    | UTC | 2024-03-01T00:00    | 2024-11-01T00:00Z 2025-02-01T00:00Z
            0 0 0 1 */5 *      | UTC | 2024-01-01T00:00    | 2024-06-01T00:00Z 2024-11-01T00:00Z
            0 0 0 +1 +2 *      | UTC | 2024-01-01T00:00    | 2024-02-01T00:00Z
            # day-of-week: 0 and 7 are Sunday, 1 is Monday, * runs from Monday; 7 first in a range is 0
            0 0 0 * * 0        | UTC | 2024-01-01T00:00    | 2024-01-07T00:00Z
            0 0 0 * * 7        | UTC | 2024-01-01T00:00    | 2024-01-07T00:00Z
            0 0 0 * * 1        | UTC | 2024-01-01T00:00    | 2024-01-08T00:00Z
            0 0 0 * * MON-FRI  | UTC | 2024-01-05T12:00    | 2024-01-08T00:00Z
            0 0 0 * * */2      | UTC | 2024-01-05T12:00    | 2024-01-07T00:00Z 2024-01-08T00:00Z 2024-01-10T00:00Z
            0 0 0 * * 0/2      | UTC | 2024-01-01T00:00    | 2024-01-02T00:00Z 2024-01-04T00:00Z 2024-01-06T00:00Z
            0 0 0 * * 7-1      | UTC | 2024-01-05T00:00    | 2024-01-07T00:00Z 2024-01-08T00:00Z
            0 0 0 * * SUN-SAT  | UTC | 2024-01-05T00:00    | 2024-01-06T00:00Z 2024-01-07T00:00Z
            0 0 0 ? * ?        | UTC | 2024-01-05T00:00    | 2024-01-06T00:00Z
            # L, L-n, LW and nW in day-of-month; 31W skips a month whose 31st is a Sunday (March 2024)
            0 0 0 L * *        | UTC | 2024-02-01T00:00    | 2024-02-29T00:00Z 2024-03-31T00:00Z
            0 0 0 L-3 * *      | UTC | 2024-02-01T00:00    | 2024-02-26T00:00Z 2024-03-28T00:00Z
            0 0 0 LW * *       | UTC | 2024-03-01T00:00    | 2024-03-29T00:00Z 2024-04-30T00:00Z
            0 0 0 15W * *      | UTC | 2024-06-01T00:00    | 2024-06-14T00:00Z 2024-07-15T00:00Z
            0 0 0 1W * *       | UTC | 2024-05-31T00:00    | 2024-06-03T00:00Z 2024-07-01T00:00Z
            0 0 0 31W * *      | UTC | 2024-03-01T00:00    | 2024-05-31T00:00Z 2024-07-31T00:00Z
            0 0 0 1,L * *      | UTC | 2024-02-10T00:00    | 2024-02-29T00:00Z 2024-03-01T00:00Z 2024-03-31T00:00Z
            # nL and n#k in day-of-week, numbers and names; a 5th that a month lacks is looked for later
            0 0 0 * * 5L       | UTC | 2024-01-01T00:00    | 2024-01-26T00:00Z 2024-02-23T00:00Z
            0 0 0 * * thuL     | UTC | 2024-01-01T00:00    | 2024-01-25T00:00Z
            0 0 0 * * 5#3      | UTC | 2024-01-01T00:00    | 2024-01-19T00:00Z 2024-02-16T00:00Z
            0 0 0 * * MON#1    | UTC | 2024-01-01T00:00    | 2024-02-05T00:00Z 2024-03-04T00:00Z
            0 0 0 * * 1#5      | UTC | 2024-01-01T00:00    | 2024-01-29T00:00Z 2024-04-29T00:00Z
            0 0 0 * * 0#1      | UTC | 2024-01-01T00:00    | 2024-01-07T00:00Z
            0 0 0 * * 1-5,5L   | UTC | 2024-01-26T12:00    | 2024-01-29T00:00Z 2024-01-30T00:00Z
            # both day fields restricted: a day must match both
            0 0 0 13 * FRI     | UTC | 2024-01-01T00:00    | 2024-09-13T00:00Z 2024-12-13T00:00Z
            0 0 0 L * FRI      | UTC | 2024-01-01T00:00    | 2024-05-31T00:00Z 2025-01-31T00:00Z
            0 0 0 1W * MON     | UTC | 2024-01-01T00:00    | 2024-04-01T00:00Z 2024-06-03T00:00Z
            # macros, in any case
            @yearly            | UTC | 2024-03-01T00:00    | 2025-01-01T00:00Z
            @monthly           | UTC | 2024-03-01T00:00    | 2024-04-01T00:00Z
            @weekly            | UTC | 2024-01-01T00:00    | 2024-01-07T00:00Z
            @daily             | UTC | 2024-01-01T10:00    | 2024-01-02T00:00Z
            @HOURLY            | UTC | 2024-01-01T10:00    | 2024-01-01T11:00Z
            # a gap: the missing wall time is skipped, not moved
            0 30 2 * * *       | Europe/Berlin       | 2024-03-30T01:00 | 2024-03-30T02:30+01:00 2024-04-01T02:30+02:00
            0 0 * * * *        | Europe/Berlin       | 2024-03-31T00:30 | 2024-03-31T01:00+01:00 2024-03-31T03:00+02:00
            0 30 2 * * *       | America/New_York    | 2024-03-09T07:00 | 2024-03-11T02:30-04:00
            # an overlap: a repeated wall time fires at both of its instants
            0 30 2 * * *       | Europe/Berlin       | 2024-10-26T03:00 | 2024-10-27T02:30+02:00 2024-10-27T02:30+01:00 2024-10-28T02:30+01:00
            0 0 * * * *        | Europe/Berlin       | 2024-10-27T01:30 | 2024-10-27T02:00+02:00 2024-10-27T02:00+01:00 2024-10-27T03:00+01:00
            0 30 1 * * *       | America/New_York    | 2024-11-03T00:00 | 2024-11-03T01:30-04:00 2024-11-03T01:30-05:00 2024-11-04T01:30-05:00
            # a 30-minute gap: 02:40 exists after it, but Spring's search (an hour on from 01:41) passes it by
            0 40 * * * *       | Australia/Lord_Howe | 2024-10-06T01:00 | 2024-10-06T01:40+10:30 2024-10-06T03:40+11:00
            # midnight missing (America/Santiago): a daily midnight skips that day, a Sunday midnight that week
            0 0 0 * * *        | America/Santiago    | 2024-09-06T20:00 | 2024-09-07T00:00-04:00 2024-09-09T00:00-03:00
            0 0 0 * * SUN      | America/Santiago    | 2024-09-01T12:00 | 2024-09-15T00:00-03:00
            0 0 0 L * *        | America/Santiago    | 2024-08-30T00:00 | 2024-08-31T00:00-04:00 2024-09-30T00:00-03:00
            # the hour before midnight repeated (America/Santiago)
            0 30 23 * * *      | America/Santiago    | 2024-04-06T12:00 | 2024-04-06T23:30-03:00 2024-04-06T23:30-04:00 2024-04-07T23:30-04:00
            """)
    void firesWhereSpringFires(String expression, String zone, String after, String expected) {
        ZonedDateTime start = LocalDateTime.parse(after).atZone(ZoneId.of(zone));
        List<OffsetDateTime> times = times(expected);

        assertThat(chain(CronExpression.parseSpring(expression), start, times.size()))
                .as("AX")
                .isEqualTo(times);
        assertThat(springChain(expression, start, times.size())).as("Spring").isEqualTo(times);
    }

    @Test
    void aFractionOfASecondLeadsToTheNextWholeSecond() {
        CronExpression everySecond = CronExpression.parseSpring("* * * * * *");

        assertThat(everySecond.next(Instant.parse("2024-01-01T10:00:00.500Z"), ZoneId.of("UTC")))
                .contains(Instant.parse("2024-01-01T10:00:01Z"));
        assertThat(everySecond.next(Instant.parse("2024-01-01T10:00:00Z"), ZoneId.of("UTC")))
                .contains(Instant.parse("2024-01-01T10:00:01Z"));
    }

    @Test
    void anExpressionThatNeverFiresIsAcceptedButHasNoNextTimeAndCannotDefineATask() {
        for (String never : List.of("0 0 0 30 2 *", "0 0 0 * * 1#6", "0 0 0 31 4 *")) {
            CronExpression parsed = CronExpression.parseSpring(never);
            ZonedDateTime start = ZonedDateTime.parse("2024-01-01T00:00Z");

            assertThat(parsed.next(start)).as(never).isEmpty();
            assertThat(springChain(never, start, 1)).as(never).isEmpty();
            assertThatThrownBy(parsed::requireCanFire)
                    .isInstanceOf(CronParseException.class)
                    .hasMessageStartingWith("Invalid Spring cron expression '" + never + "': it can never fire");
        }
        assertThat(CronExpression.parseSpring("0 0 0 29 2 MON").requireCanFire())
                .isNotNull(); // rare (2044-02-29 is the next), not never
    }

    /**
     * Spring's search answers a time that is not after its start for {@code L-n} with n of 28 or more, and in the
     * half hour before Lord Howe's clocks go back: Spring then runs the task again and again. AX answers where the
     * search moves on.
     */
    @ParameterizedTest(name = "''{0}'' in {1} after {2}: Spring answers {3} again, AX {4}")
    @CsvSource(delimiter = '|', textBlock = """
            0 15 * * * *   | Australia/Lord_Howe | 2025-04-06T01:15 | 2025-04-06T01:15+11:00 | 2025-04-06T02:15+10:30 2025-04-06T03:15+10:30
            @hourly        | Australia/Lord_Howe | 2025-04-06T01:00 | 2025-04-06T01:00+11:00 | 2025-04-06T02:00+10:30 2025-04-06T03:00+10:30
            0 0 0 L-30 * * | UTC                 | 2024-01-30T00:00 | 2024-01-30T00:00Z      | 2024-03-01T00:00Z 2024-03-31T00:00Z
            0 0 0 L-28 * * | UTC                 | 2025-01-31T00:00 | 2025-01-31T00:00Z      | 2025-03-03T00:00Z 2025-04-02T00:00Z
            """)
    void whereSpringsSearchLoopsBackAxMovesOn(
            String expression, String zone, String after, String springAgain, String expected) {
        ZonedDateTime start = LocalDateTime.parse(after).atZone(ZoneId.of(zone));
        List<OffsetDateTime> times = times(expected);

        assertThat(springChain(expression, start, 1)).isEqualTo(times(springAgain));
        assertThat(chain(CronExpression.parseSpring(expression), start, times.size()))
                .isEqualTo(times);
    }

    @ParameterizedTest(name = "''{0}'' is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0 0 * * *          | expected 6 fields (second minute hour day-of-month month day-of-week) but found 5 at position 9; Spring's cron starts with seconds: '0 0 0 * * *'
            0 0 0 * * ? 2024   | expected 6 fields (second minute hour day-of-month month day-of-week) but found 7 at position 12; Spring's cron has no year field
            60 * * * * *       | seconds '60': value 60 out of range 0-59 at position 0
            0 0 24 * * *       | hours '24': value 24 out of range 0-23 at position 4
            0 0 0 0 * *        | day-of-month '0': value 0 out of range 1-31 at position 6
            0 0 0 * 13 *       | month '13': value 13 out of range 1-12 at position 8
            0 0 0 * * 8        | day-of-week '8': value 8 out of range 0-7 (0 and 7 are Sunday) at position 10
            0 0 22-2 * * *     | hours '22-2': range 22-2 ends before it starts (Spring's ranges do not wrap around; list both parts instead, such as 22-23,0-2) at position 4
            0 0 0 * * FRI-MON  | day-of-week 'FRI-MON': range 5-1 ends before it starts
            */0 * * * * *      | seconds '*/0': step 0 must be 1 or higher at position 0
            ? * * * * *        | seconds '?': value '?' is not a number at position 0
            0 0 0 * JANUARY *  | month 'JANUARY': value '1UARY' is not a number (names are JAN-DEC) at position 8
            0 0 0 l * *        | day-of-month 'l': value 'l' is not a number at position 6
            0 0 0 L-0 * *      | day-of-month 'L-0': after 'L' comes '-' and a number of days of 1 or more, such as L-3
            0 0 0 L3 * *       | day-of-month 'L3': after 'L' comes '-' and a number of days of 1 or more, such as L-3
            0 0 0 1L * *       | day-of-month '1L': 'L' must come first (L, L-n or LW)
            0 0 0 W * *        | day-of-month 'W': 'W' needs a day of the month before it, such as 15W
            0 0 0 32W * *      | day-of-month '32W': value 32 out of range 1-31
            0 0 0 * * L        | day-of-week 'L': 'L' needs a day of the week before it, such as 5L or FRIL (Quartz's lone L, Saturday, is SAT or 6 in Spring's syntax)
            0 0 0 * * 1#0      | day-of-week '1#0': the occurrence after '#' must be 1 or more
            0 0 0 * * #2       | day-of-week '#2': '#' needs a day of the week before it, such as MON#2
            0 0 0 1,L-0 * *    | day-of-month '1,L-0': 'L-0': after 'L' comes '-' and a number of days of 1 or more
            0 0 0 * * 9L       | day-of-week '9L': value 9 out of range 0-7 (0 and 7 are Sunday)
            @reboot            | unknown macro '@reboot'; Spring knows @yearly, @annually, @monthly, @weekly, @daily, @midnight and @hourly
            """)
    void refusesWhatSpringRefusesAndSaysWhy(String expression, String message) {
        assertThatThrownBy(() -> CronExpression.parseSpring(expression))
                .isInstanceOf(CronParseException.class)
                .hasMessageStartingWith("Invalid Spring cron expression '" + expression + "': ")
                .hasMessageContaining(message);
        assertThat(springAccepts(expression)).isFalse();
    }

    @Test
    void separatorsAreSpacesOnlyAsInSpring() {
        // a tab around a field is trimmed; inside a field it is no separator
        assertThat(CronExpression.parseSpring("0 \t0 * * * *").next(ZonedDateTime.parse("2024-01-01T00:00:01Z")))
                .contains(ZonedDateTime.parse("2024-01-01T01:00Z"));
        assertThat(springAccepts("0 \t0 * * * *")).isTrue();
        assertThatThrownBy(() -> CronExpression.parseSpring("0\t0 * * * * *"))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining("seconds '0\t0'");
        assertThat(springAccepts("0\t0 * * * * *")).isFalse();
    }

    @Test
    void nullAndEmptyAreRefused() {
        assertThatThrownBy(() -> CronExpression.parseSpring(null))
                .isInstanceOf(CronParseException.class)
                .hasMessage("Invalid Spring cron expression null: expression must not be empty");
        assertThatThrownBy(() -> CronExpression.parseSpring(""))
                .isInstanceOf(CronParseException.class)
                .hasMessage("Invalid Spring cron expression '': expression must not be empty");
        assertThatThrownBy(() -> CronExpression.parseSpring("   "))
                .isInstanceOf(CronParseException.class)
                .hasMessageContaining("but found 0");
    }

    @Test
    void theSyntaxIsPartOfTheValueSoTheSameTextInBothSyntaxesIsNotTheSameExpression() {
        CronExpression spring = CronExpression.parseSpring("0 0 0 ? * 1");
        CronExpression quartz = CronExpression.parse("0 0 0 ? * 1");
        ZonedDateTime newYear = ZonedDateTime.parse("2024-01-01T00:00Z"); // a Monday

        assertThat(spring.syntax()).isEqualTo(CronExpression.Syntax.SPRING);
        assertThat(quartz.syntax()).isEqualTo(CronExpression.Syntax.QUARTZ);
        assertThat(spring.toString()).isEqualTo(quartz.toString()).isEqualTo("0 0 0 ? * 1");
        assertThat(spring).isNotEqualTo(quartz).isEqualTo(CronExpression.parseSpring("0 0 0 ? * 1"));
        assertThat(spring.next(newYear)).contains(ZonedDateTime.parse("2024-01-08T00:00Z")); // Monday
        assertThat(quartz.next(newYear)).contains(ZonedDateTime.parse("2024-01-07T00:00Z")); // Sunday
        assertThat(CronExpression.parseSpring(" @Daily ").toString()).isEqualTo(" @Daily ");
    }

    private static List<OffsetDateTime> times(String text) {
        return Arrays.stream(text.trim().split("\\s+"))
                .map(OffsetDateTime::parse)
                .toList();
    }

    private static List<OffsetDateTime> chain(CronExpression expression, ZonedDateTime start, int count) {
        List<OffsetDateTime> times = new ArrayList<>();
        ZonedDateTime after = start;
        for (int i = 0; i < count; i++) {
            ZonedDateTime next = expression.next(after).orElse(null);
            if (next == null) {
                break;
            }
            times.add(next.toOffsetDateTime());
            after = next;
        }
        return times;
    }

    private static List<OffsetDateTime> springChain(String expression, ZonedDateTime start, int count) {
        org.springframework.scheduling.support.CronExpression spring =
                org.springframework.scheduling.support.CronExpression.parse(expression);
        List<OffsetDateTime> times = new ArrayList<>();
        ZonedDateTime after = start;
        for (int i = 0; i < count; i++) {
            ZonedDateTime next = spring.next(after);
            if (next == null) {
                break;
            }
            times.add(next.toOffsetDateTime());
            after = next;
        }
        return times;
    }

    private static boolean springAccepts(String expression) {
        return org.springframework.scheduling.support.CronExpression.isValidExpression(expression);
    }
}
