package io.ax.core.engine.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxTask;
import io.ax.core.Rate;
import io.ax.core.TaskLimits;
import io.ax.core.cron.CronExpression;
import io.ax.core.trigger.CronTrigger;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * A stored definition keeps the task's priority and whether it is transactional; a text written before either reads
 * as priority 0, not transactional.
 */
class TaskDefinitionTextTest {

    @Test
    void aPriorityIsStoredAndReadBackAndZeroLeavesTheTextAsItWas() {
        AxTask urgent =
                AxTask.builder("urgent").target("jobs.urgent").priority(-7).build();
        assertThat(TaskDefinitionText.read(TaskDefinitionText.write(urgent))).isEqualTo(urgent);

        AxTask plain = AxTask.builder("plain").target("jobs.plain").build();
        String text = TaskDefinitionText.write(plain);
        assertThat(text).doesNotContain("priority").doesNotContain("transactional");
        assertThat(TaskDefinitionText.read(text).priority()).isZero();
        assertThat(TaskDefinitionText.read(text).transactional()).isFalse();
    }

    @Test
    void aSpringCronIsReadBackInSpringsSyntaxAndAQuartzCronAsBefore() {
        // the same text, Monday in Spring's syntax and Sunday in Quartz's
        AxTask spring = AxTask.builder("spring")
                .target("jobs.spring")
                .trigger(CronTrigger.ofSpring("0 0 9 ? * 1", ZoneId.of("Europe/Berlin")))
                .build();
        AxTask quartz = AxTask.builder("quartz")
                .target("jobs.quartz")
                .trigger(CronTrigger.of("0 0 9 ? * 1", ZoneId.of("Europe/Berlin")))
                .build();

        String springText = TaskDefinitionText.write(spring);
        assertThat(springText).contains("cron-syntax=spring");
        assertThat(TaskDefinitionText.read(springText)).isEqualTo(spring);
        assertThat(((CronTrigger) TaskDefinitionText.read(springText).trigger())
                        .expression()
                        .syntax())
                .isEqualTo(CronExpression.Syntax.SPRING);
        String quartzText = TaskDefinitionText.write(quartz);
        assertThat(quartzText).doesNotContain("cron-syntax");
        assertThat(TaskDefinitionText.read(quartzText)).isEqualTo(quartz);
        assertThat(TaskDefinitionText.read(quartzText)).isNotEqualTo(TaskDefinitionText.read(springText));
    }

    @Test
    void limitsAreStoredAndReadBackAndNoneLeavesTheTextAsItWas() {
        AxTask limited = AxTask.builder("limited")
                .target("jobs.limited")
                .params(java.util.Map.of("account", "a-1"))
                .limits(new TaskLimits(3, "acct-${account}", Rate.parse("100/1m")))
                .build();
        assertThat(TaskDefinitionText.read(TaskDefinitionText.write(limited))).isEqualTo(limited);

        String text = TaskDefinitionText.write(
                AxTask.builder("plain").target("jobs.plain").build());
        assertThat(text)
                .doesNotContain("max-concurrent")
                .doesNotContain("mutex")
                .doesNotContain("rate");
        assertThat(TaskDefinitionText.read(text).limits()).isEqualTo(TaskLimits.NONE);
    }

    @Test
    void aSpacingIsStoredAndReadBackAndNoneLeavesTheTextAsItWas() {
        AxTask spaced = AxTask.builder("spaced")
                .target("jobs.spaced")
                .trigger(new io.ax.core.trigger.SpacedTrigger(
                        io.ax.core.trigger.CronTrigger.of("0/5 * * * * ?", java.time.ZoneOffset.UTC),
                        java.time.Duration.ofSeconds(12)))
                .build();
        assertThat(TaskDefinitionText.read(TaskDefinitionText.write(spaced))).isEqualTo(spaced);

        String text = TaskDefinitionText.write(
                AxTask.builder("plain").target("jobs.plain").build());
        assertThat(text).doesNotContain("min-spacing");
    }

    @Test
    void aFixedRatePinnedToAStartIsStoredAndReadBack() {
        java.time.Instant start = java.time.Instant.parse("2030-01-01T00:00:00.123Z");
        AxTask pinned = AxTask.builder("pinned")
                .target("jobs.pinned")
                .trigger(io.ax.core.trigger.IntervalTrigger.fixedRateFrom(java.time.Duration.ofMinutes(7), start))
                .build();
        AxTask read = TaskDefinitionText.read(TaskDefinitionText.write(pinned));
        assertThat(read).isEqualTo(pinned);
        assertThat(read.trigger().firstFireTime(start.minusSeconds(1))).contains(start);
        assertThat(read.trigger().firstFireTime(start.plusSeconds(60)))
                .as("a start that passed is still the first fire: a late one")
                .contains(start);
        assertThat(read.trigger().resumeAfter(start, start.plusSeconds(60)))
                .as("the series keeps its phase")
                .contains(start.plusSeconds(7 * 60));
        assertThat(TaskDefinitionText.write(
                        AxTask.builder("plain").target("jobs.plain").build()))
                .doesNotContain("start");
    }

    @Test
    void aCronTriggerPinnedToAFirstFireIsStoredAndReadBack() {
        java.time.Instant from = java.time.Instant.parse("2030-01-01T00:00:00.500Z");
        AxTask pinned = AxTask.builder("pinned-cron")
                .target("jobs.pinned")
                .trigger(io.ax.core.trigger.CronTrigger.of("0/10 * * * * ?", java.time.ZoneOffset.UTC)
                        .firstFireFrom(from))
                .build();
        String text = TaskDefinitionText.write(pinned);
        AxTask read = TaskDefinitionText.read(text);
        assertThat(read).isEqualTo(pinned);
        assertThat(read.trigger().firstFireTime(from.plusSeconds(3600)))
                .as("the first cron time at or after the pinned instant, though it passed")
                .contains(java.time.Instant.parse("2030-01-01T00:00:10Z"));

        String older = text.lines()
                .filter(line -> !line.startsWith("from="))
                .collect(java.util.stream.Collectors.joining("\n", "", "\n"));
        assertThat(TaskDefinitionText.read(older).trigger())
                .as("a text stored before the key: a cron trigger that is not pinned")
                .isEqualTo(io.ax.core.trigger.CronTrigger.of("0/10 * * * * ?", java.time.ZoneOffset.UTC));
        assertThat(TaskDefinitionText.write(AxTask.builder("cron")
                        .target("jobs.cron")
                        .trigger(io.ax.core.trigger.CronTrigger.of("0/10 * * * * ?", java.time.ZoneOffset.UTC))
                        .build()))
                .doesNotContain("from=");
    }
}
