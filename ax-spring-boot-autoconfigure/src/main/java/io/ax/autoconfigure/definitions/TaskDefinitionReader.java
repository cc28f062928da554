package io.ax.autoconfigure.definitions;

import io.ax.core.AxTask;
import io.ax.core.Rate;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskLimits;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import io.ax.core.trigger.Trigger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.convert.DurationStyle;

/**
 * Turns the text of a task definition into an {@link AxTask}, checking every attribute, so that a bad definition,
 * annotated or in properties, fails start-up with one message naming the definition, the attribute and the reason.
 * Stateless apart from its defaults.
 */
final class TaskDefinitionReader {

    private final ZoneId defaultZone;
    private final RetryPolicy defaultRetry;

    /**
     * @param defaultZone the zone of cron expressions that name none
     * @param defaultRetry the retry policy of definitions that set none
     */
    TaskDefinitionReader(ZoneId defaultZone, RetryPolicy defaultRetry) {
        this.defaultZone = defaultZone;
        this.defaultRetry = defaultRetry;
    }

    AxTask read(TaskSpec spec, TaskSpec.Source source) {
        AxTask.Builder task = AxTask.builder(spec.name())
                .type(spec.type())
                .target(spec.target())
                .params(spec.params())
                .trigger(trigger(spec, source))
                .retry(spec.retry() == null ? defaultRetry : retry(spec.retry(), source))
                .concurrent(spec.concurrent())
                .durability(spec.durability())
                .misfire(spec.misfire())
                .priority(spec.priority())
                .transactional(spec.transactional());
        try {
            task.limits(new TaskLimits(
                    spec.maxConcurrent(),
                    spec.mutex().isEmpty() ? null : spec.mutex(),
                    spec.rate().isEmpty() ? null : Rate.parse(spec.rate())));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw source.invalid(
                    message.startsWith("maxConcurrent")
                            ? "maxConcurrent"
                            : message.contains("mutex") ? "mutex" : "rate",
                    message);
        }
        if (!spec.group().isEmpty()) {
            task.group(spec.group());
        }
        Duration timeout = duration(source, "timeout", spec.timeout(), false);
        if (timeout != null) {
            task.timeout(timeout);
        }
        try {
            return task.build();
        } catch (IllegalArgumentException | NullPointerException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            String attribute = message.startsWith("task name")
                    ? "name"
                    : message.startsWith("group")
                            ? "group"
                            : message.startsWith("priority")
                                    ? "priority"
                                    : message.startsWith("mutex") ? "mutex" : "definition";
            throw source.invalid(attribute, message);
        }
    }

    private Trigger trigger(TaskSpec spec, TaskSpec.Source source) {
        List<String> set = new ArrayList<>();
        if (!spec.cron().isEmpty()) {
            set.add("cron");
        }
        if (!spec.fixedRate().isEmpty()) {
            set.add("fixedRate");
        }
        if (!spec.fixedDelay().isEmpty()) {
            set.add("fixedDelay");
        }
        if (!spec.dependsOn().isEmpty()) {
            set.add("dependsOn");
        }
        if (set.size() > 1) {
            throw source.invalid(
                    set.get(1),
                    "set only one trigger, found "
                            + String.join(
                                    " and ", set.stream().map(source::attribute).toList()));
        }
        if (!spec.zone().isEmpty() && spec.cron().isEmpty()) {
            throw source.invalid("zone", "a zone applies only to a cron trigger");
        }
        if (!spec.initialDelay().isEmpty()
                && spec.fixedRate().isEmpty()
                && spec.fixedDelay().isEmpty()) {
            throw source.invalid(
                    "initialDelay",
                    "an initial delay applies only to " + source.attribute("fixedRate") + " or "
                            + source.attribute("fixedDelay"));
        }
        if (!spec.dependsOn().isEmpty()) {
            try {
                return new DependencyTrigger(spec.dependsOn());
            } catch (IllegalArgumentException e) {
                throw source.invalid("dependsOn", e.getMessage());
            }
        }
        if (!spec.cron().isEmpty()) {
            ZoneId zoneId = spec.zone().isEmpty() ? defaultZone : zone(source, spec.zone());
            try {
                return CronTrigger.of(spec.cron(), zoneId);
            } catch (IllegalArgumentException e) {
                throw source.invalid("cron", e.getMessage());
            }
        }
        Duration initial = spec.initialDelay().isEmpty()
                ? Duration.ZERO
                : duration(source, "initialDelay", spec.initialDelay(), true);
        if (!spec.fixedRate().isEmpty()) {
            return IntervalTrigger.fixedRate(duration(source, "fixedRate", spec.fixedRate(), false), initial);
        }
        if (!spec.fixedDelay().isEmpty()) {
            return IntervalTrigger.fixedDelay(duration(source, "fixedDelay", spec.fixedDelay(), false), initial);
        }
        return OnDemandTrigger.INSTANCE;
    }

    private static RetryPolicy retry(TaskSpec.Retry retry, TaskSpec.Source source) {
        String timesText = retry.times() == null ? "" : retry.times().trim();
        int times;
        try {
            times = timesText.isEmpty() ? 0 : Integer.parseInt(timesText);
        } catch (NumberFormatException e) {
            throw source.invalid("retry.times", "'" + timesText + "' is not a number");
        }
        if (times < 0) {
            throw source.invalid("retry.times", "must be >= 0, was " + times);
        }
        Duration base = duration(source, "retry.base", retry.base(), false);
        Duration max = duration(source, "retry.max", retry.max(), false);
        if (base == null) {
            throw source.invalid("retry.base", "must be set");
        }
        if (max == null) {
            throw source.invalid("retry.max", "must be set");
        }
        if (max.compareTo(base) < 0) {
            throw source.invalid(
                    "retry.max",
                    "must not be shorter than " + source.attribute("retry.base") + " (" + max + " < " + base + ")");
        }
        if (retry.backoff() == null) {
            throw source.invalid("retry.backoff", "must be set");
        }
        return new RetryPolicy(times, retry.backoff(), base, max);
    }

    private static ZoneId zone(TaskSpec.Source source, String zone) {
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw source.invalid("zone", "unknown time zone '" + zone + "'");
        }
    }

    /** Parses {@code 500ms}, {@code 5s}, {@code 2m}, ISO-8601; null when empty; positive unless zero is allowed. */
    private static Duration duration(TaskSpec.Source source, String attribute, String text, boolean zeroAllowed) {
        String value = text == null ? "" : text.trim();
        if (value.isEmpty()) {
            return null;
        }
        Duration d;
        try {
            d = DurationStyle.detectAndParse(value);
        } catch (IllegalArgumentException e) {
            throw source.invalid(attribute, "'" + value + "' is not a duration (use e.g. 500ms, 5s, 2m, 1h or PT5S)");
        }
        if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
            throw source.invalid(
                    attribute, "must be " + (zeroAllowed ? "zero or positive" : "positive") + ", was " + value);
        }
        return d;
    }
}
