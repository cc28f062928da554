package io.ax.autoconfigure.adopt.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxTask;
import io.ax.core.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quartz.Calendar;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerUtils;
import org.quartz.impl.calendar.AnnualCalendar;
import org.quartz.impl.calendar.MonthlyCalendar;
import org.quartz.impl.calendar.WeeklyCalendar;
import org.quartz.spi.OperableTrigger;

/**
 * A weekly or monthly calendar written into its cron trigger's expression fires at exactly Quartz's times: the
 * adopted task's next fire times are compared with those Quartz computes for the trigger and its calendar.
 */
class CalendarFoldTest {

    private static final Instant FROM = Instant.parse("2030-01-01T00:00:00Z");
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");
    private static final TimeZone PARIS = TimeZone.getTimeZone("Europe/Paris");

    private final QuartzTaskMapping mapping =
            new QuartzTaskMapping(Duration.ofMinutes(30), RetryPolicy.none(), 3, Duration.ofSeconds(5));

    static final class PlainJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {}
    }

    private static final JobDetail JOB = JobBuilder.newJob(PlainJob.class)
            .withIdentity("report")
            .storeDurably()
            .build();

    private static Trigger cron(String expression, TimeZone zone) {
        return TriggerBuilder.newTrigger()
                .forJob(JOB)
                .withIdentity("calendared")
                .startAt(Date.from(FROM))
                .modifiedByCalendar("days")
                .withSchedule(CronScheduleBuilder.cronSchedule(expression).inTimeZone(zone))
                .build();
    }

    private static WeeklyCalendar weekly(TimeZone zone, int... excluded) {
        WeeklyCalendar calendar = new WeeklyCalendar(zone);
        for (int d = 1; d <= 7; d++) {
            calendar.setDayExcluded(d, false);
        }
        for (int d : excluded) {
            calendar.setDayExcluded(d, true);
        }
        return calendar;
    }

    private static MonthlyCalendar monthly(TimeZone zone, int... excluded) {
        MonthlyCalendar calendar = new MonthlyCalendar(zone);
        for (int d : excluded) {
            calendar.setDayExcluded(d, true);
        }
        return calendar;
    }

    static Stream<Arguments> folds() {
        // made without a zone, Quartz's calendar excludes Saturday and Sunday and reads days in the default zone
        WeeklyCalendar workdays = new WeeklyCalendar();
        return Stream.of(
                Arguments.of("0 0 9 * * ?", TimeZone.getDefault(), workdays, "0 0 9 ? * 2,3,4,5,6"),
                Arguments.of("0 0 9 * * ?", UTC, weekly(UTC, 1, 7), "0 0 9 ? * 2,3,4,5,6"),
                Arguments.of("0 0 9 ? * *", PARIS, weekly(PARIS, 1, 7), "0 0 9 ? * 2,3,4,5,6"),
                Arguments.of("0 30 8 ? * MON,WED,SAT", UTC, weekly(UTC, 4), "0 30 8 ? * 2,7"),
                Arguments.of("0 0/20 7-9 ? * MON-FRI", UTC, weekly(UTC, 6), "0 0/20 7-9 ? * 2,3,4,5"),
                Arguments.of(
                        "0 0 12 * * ?",
                        UTC,
                        monthly(UTC, 1, 15, 31),
                        "0 0 12 2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30 * ?"),
                Arguments.of("0 0 12 1-10 * ?", PARIS, monthly(PARIS, 5), "0 0 12 1,2,3,4,6,7,8,9,10 * ?"),
                Arguments.of("0 0 6 ? * *", UTC, monthly(UTC, 2), null));
    }

    @ParameterizedTest
    @MethodSource("folds")
    void theFoldedExpressionFiresAtQuartzsTimes(String expression, TimeZone zone, Calendar calendar, String folded) {
        Trigger trigger = cron(expression, zone);
        AdoptedJob adopted = mapping.map(JOB, trigger, calendar, 1, FROM);
        AxTask task = adopted.task();
        if (folded != null) {
            assertThat(task.trigger().describe()).contains("'" + folded + "'");
        }
        assertThat(adopted.calendar()).as("the job's context hands it on").isSameAs(calendar);

        List<Date> quartz = TriggerUtils.computeFireTimes((OperableTrigger) trigger, calendar, 120);
        List<Date> ax = new ArrayList<>();
        Instant t = task.trigger().firstFireTime(FROM).orElseThrow();
        while (ax.size() < quartz.size()) {
            ax.add(Date.from(t));
            t = task.trigger().nextFireTime(t, t).orElseThrow();
        }
        assertThat(ax).isEqualTo(quartz);
    }

    static Stream<Arguments> refusals() {
        WeeklyCalendar withBase = new WeeklyCalendar(new AnnualCalendar(), UTC);
        return Stream.of(
                Arguments.of(
                        "0 0 9 L * ?",
                        weekly(UTC, 1),
                        "the day-of-month field 'L' chooses the days, and a cron expression cannot also choose days of"
                                + " the week"),
                Arguments.of(
                        "0 0 9 ? * MON",
                        monthly(UTC, 3),
                        "the day-of-week field 'MON' chooses the days, and a cron expression cannot also choose days"
                                + " of the month"),
                Arguments.of("0 0 9 ? * 2#1", weekly(UTC, 1), "its day-of-week field '2#1' is no plain list of days"),
                Arguments.of(
                        "0 0 9 ? * SAT,SUN",
                        weekly(UTC, 1, 7),
                        "it excludes every day-of-week the trigger fires on: it never fires"),
                Arguments.of(
                        "0 0 9 * * ?",
                        weekly(PARIS, 1),
                        "it reads days in time zone Europe/Paris, and the trigger in UTC"),
                Arguments.of("0 0 9 * * ?", withBase, "it has a base calendar"),
                Arguments.of("0 0 9 * * ?", new AnnualCalendar(UTC), "AX writes only a WeeklyCalendar or a"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void aCalendarThatCannotBeWrittenIntoTheExpressionIsRefused(String expression, Calendar calendar, String why) {
        assertThatThrownBy(() -> mapping.map(JOB, cron(expression, UTC), calendar, 1, FROM))
                .isInstanceOf(InvalidJobDefinitionException.class)
                .hasMessageContaining("attribute 'calendarName': calendar 'days' (a ")
                .hasMessageContaining(why);
    }

    @Test
    void aSimpleTriggerWithACalendarIsRefused() {
        Trigger simple = TriggerBuilder.newTrigger()
                .forJob(JOB)
                .withIdentity("simple")
                .modifiedByCalendar("days")
                .withSchedule(SimpleScheduleBuilder.repeatHourlyForever())
                .build();
        assertThatThrownBy(() -> mapping.map(JOB, simple, weekly(UTC, 1), 1, FROM))
                .isInstanceOf(InvalidJobDefinitionException.class)
                .hasMessageContaining("attribute 'calendarName': calendar 'days' excludes times from its fires, and AX"
                        + " writes a calendar only into the expression of a cron trigger");
    }
}
