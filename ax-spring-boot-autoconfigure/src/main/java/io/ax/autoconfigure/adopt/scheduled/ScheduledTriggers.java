package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.cron.CronParseException;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.Trigger;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.StringUtils;

/**
 * Reads a {@code @Scheduled} declaration as Spring does — the same attributes, placeholders, duration formats,
 * time unit, default zone and rules — and gives the trigger that fires at the times Spring's scheduler would.
 * Where Spring would refuse a declaration at start-up, so does this, with Spring's reason.
 */
final class ScheduledTriggers {

    private static final String EXACTLY_ONE =
            "Exactly one of the 'cron', 'fixedDelay' or 'fixedRate' attributes is required";

    private final UnaryOperator<String> placeholders;

    /** @param placeholders resolves {@code ${...}} as the application's embedded values */
    ScheduledTriggers(UnaryOperator<String> placeholders) {
        this.placeholders = placeholders;
    }

    /**
     * The trigger of one declaration, or empty when it is disabled ({@code cron = "-"}).
     *
     * @param origin the declaration, for messages: {@code @Scheduled on com.example.Jobs.report()}
     */
    Optional<Trigger> trigger(Scheduled scheduled, String origin) {
        TimeUnit unit = scheduled.timeUnit();
        Duration initialDelay = Duration.of(scheduled.initialDelay(), unit.toChronoUnit());
        if (StringUtils.hasText(scheduled.initialDelayString())) {
            require(
                    initialDelay.isNegative(),
                    origin,
                    "initialDelayString",
                    "Specify 'initialDelay' or 'initialDelayString', not both");
            String value = placeholders.apply(scheduled.initialDelayString());
            if (StringUtils.hasLength(value)) {
                initialDelay = duration(value, unit, origin, "initialDelayString");
            }
        }
        // a schedule found: a cron (its trigger null when it is "-"), a fixed delay or a fixed rate
        boolean hasSchedule = false;
        Trigger trigger = null;
        if (StringUtils.hasText(scheduled.cron())) {
            String cron = placeholders.apply(scheduled.cron());
            String zone = placeholders.apply(scheduled.zone());
            if (StringUtils.hasLength(cron)) {
                require(
                        initialDelay.isNegative(),
                        origin,
                        "initialDelay",
                        "'initialDelay' not supported for cron triggers");
                hasSchedule = true;
                trigger = Scheduled.CRON_DISABLED.equals(cron) ? null : cron(cron, zone, origin);
            }
        }
        Duration start = initialDelay.isNegative() ? Duration.ZERO : initialDelay;
        Duration fixedDelay =
                interval(scheduled.fixedDelay(), scheduled.fixedDelayString(), unit, origin, "fixedDelay");
        if (fixedDelay != null) {
            require(!hasSchedule, origin, "fixedDelay", EXACTLY_ONE);
            hasSchedule = true;
            trigger = IntervalTrigger.fixedDelay(positive(fixedDelay, origin, "fixedDelay"), start);
        }
        Duration fixedRate = interval(scheduled.fixedRate(), scheduled.fixedRateString(), unit, origin, "fixedRate");
        if (fixedRate != null) {
            require(!hasSchedule, origin, "fixedRate", EXACTLY_ONE);
            hasSchedule = true;
            trigger = IntervalTrigger.fixedRate(positive(fixedRate, origin, "fixedRate"), start);
        }
        if (!hasSchedule) {
            // Spring runs it once per start of each node: there is no fire to share between nodes
            throw InvalidJobDefinitionException.ofAdopted(
                    origin,
                    "fixedDelayString",
                    "its schedule resolves to none, which makes it a one-time task; AX adopts only recurring ones."
                            + " Give it a schedule, or drop it from the adoption with ax.adopt.scheduled=locked");
        }
        return Optional.ofNullable(trigger);
    }

    /** Both forms of an interval: the number (negative when unset), or the text (placeholders, units). */
    private Duration interval(long value, String text, TimeUnit unit, String origin, String attribute) {
        Duration duration = null;
        if (value >= 0) {
            duration = Duration.of(value, unit.toChronoUnit());
        }
        if (StringUtils.hasText(text)) {
            require(duration == null, origin, attribute + "String", EXACTLY_ONE);
            String resolved = placeholders.apply(text);
            if (StringUtils.hasLength(resolved)) {
                duration = duration(resolved, unit, origin, attribute + "String");
            }
        }
        return duration;
    }

    private static Duration duration(String value, TimeUnit unit, String origin, String attribute) {
        try {
            return DurationFormatterUtils.detectAndParse(
                    value, DurationFormat.Unit.fromChronoUnit(unit.toChronoUnit()));
        } catch (RuntimeException e) {
            throw InvalidJobDefinitionException.ofAdopted(
                    origin, attribute, "Invalid " + attribute + " value \"" + value + "\"; " + e.getMessage());
        }
    }

    private static Duration positive(Duration period, String origin, String attribute) {
        require(
                !period.isZero() && !period.isNegative(),
                origin,
                attribute,
                "the period must be positive, was " + period);
        return period;
    }

    private static Trigger cron(String expression, String zone, String origin) {
        ZoneId zoneId;
        try {
            // as Spring: the JVM's default zone when none is given
            zoneId = StringUtils.hasText(zone)
                    ? StringUtils.parseTimeZoneString(zone).toZoneId()
                    : TimeZone.getDefault().toZoneId();
        } catch (RuntimeException e) {
            throw InvalidJobDefinitionException.ofAdopted(origin, "zone", e.getMessage());
        }
        try {
            return CronTrigger.ofSpring(expression, zoneId);
        } catch (CronParseException e) {
            throw InvalidJobDefinitionException.ofAdopted(origin, "cron", e.getMessage());
        }
    }

    private static void require(boolean condition, String origin, String attribute, String reason) {
        if (!condition) {
            throw InvalidJobDefinitionException.ofAdopted(origin, attribute, reason);
        }
    }
}
