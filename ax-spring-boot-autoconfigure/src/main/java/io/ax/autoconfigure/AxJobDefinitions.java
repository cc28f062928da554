package io.ax.autoconfigure;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxTask;
import io.ax.core.RetryPolicy;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import io.ax.core.trigger.Trigger;
import java.lang.reflect.Method;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.springframework.boot.convert.DurationStyle;

/**
 * Turns an {@link AxJob} annotation into an {@link AxTask}, resolving placeholders and checking every attribute, so
 * that a bad definition fails start-up with one message naming the method, the attribute and the reason.
 */
final class AxJobDefinitions {

    private final UnaryOperator<String> resolver;
    private final ZoneId defaultZone;

    /**
     * @param resolver resolves {@code ${...}} placeholders; throws IllegalArgumentException for unresolvable ones
     * @param defaultZone the zone of cron expressions that name none
     */
    AxJobDefinitions(UnaryOperator<String> resolver, ZoneId defaultZone) {
        this.resolver = resolver;
        this.defaultZone = defaultZone;
    }

    /** The name of the job: its {@code name} attribute, or {@code beanName.methodName}. */
    String nameOf(String beanName, Method method, AxJob job) {
        String name = resolve(method, "name", job.name());
        return name.isEmpty() ? beanName + "." + method.getName() : name;
    }

    AxTask define(String beanName, Method method, AxJob job) {
        String name = nameOf(beanName, method, job);
        checkParameters(method);
        AxTask.Builder task = AxTask.builder(name)
                .type(AxTask.LOCAL)
                .target(beanName + "." + method.getName())
                .trigger(trigger(method, job))
                .retry(retry(method, job.retry()))
                .concurrent(job.concurrent())
                .misfire(job.misfire());
        String group = resolve(method, "group", job.group());
        if (!group.isEmpty()) {
            task.group(group);
        }
        Duration timeout = duration(method, "timeout", resolve(method, "timeout", job.timeout()));
        if (timeout != null) {
            task.timeout(timeout);
        }
        try {
            return task.build();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            String attribute =
                    message.startsWith("task name") ? "name" : message.startsWith("group") ? "group" : "definition";
            throw new InvalidJobDefinitionException(describe(method), attribute, message);
        }
    }

    /** Whether the job sets its own timeout (tasks that do not get the default with a warning). */
    boolean setsTimeout(Method method, AxJob job) {
        return !resolve(method, "timeout", job.timeout()).isEmpty();
    }

    private Trigger trigger(Method method, AxJob job) {
        String cron = resolve(method, "cron", job.cron());
        String fixedRate = resolve(method, "fixedRate", job.fixedRate());
        String fixedDelay = resolve(method, "fixedDelay", job.fixedDelay());
        List<String> set = new ArrayList<>();
        if (!cron.isEmpty()) {
            set.add("cron");
        }
        if (!fixedRate.isEmpty()) {
            set.add("fixedRate");
        }
        if (!fixedDelay.isEmpty()) {
            set.add("fixedDelay");
        }
        if (set.size() > 1) {
            throw new InvalidJobDefinitionException(
                    describe(method), set.get(1), "set only one trigger, found " + String.join(" and ", set));
        }
        String zone = resolve(method, "zone", job.zone());
        String initialDelay = resolve(method, "initialDelay", job.initialDelay());
        if (!zone.isEmpty() && cron.isEmpty()) {
            throw new InvalidJobDefinitionException(describe(method), "zone", "a zone applies only to a cron trigger");
        }
        if (!initialDelay.isEmpty() && fixedRate.isEmpty() && fixedDelay.isEmpty()) {
            throw new InvalidJobDefinitionException(
                    describe(method), "initialDelay", "an initial delay applies only to fixedRate or fixedDelay");
        }
        if (!cron.isEmpty()) {
            ZoneId zoneId = zone.isEmpty() ? defaultZone : zone(method, zone);
            try {
                return CronTrigger.of(cron, zoneId);
            } catch (IllegalArgumentException e) {
                throw new InvalidJobDefinitionException(describe(method), "cron", e.getMessage());
            }
        }
        Duration initial =
                initialDelay.isEmpty() ? Duration.ZERO : duration(method, "initialDelay", initialDelay, true);
        if (!fixedRate.isEmpty()) {
            return IntervalTrigger.fixedRate(duration(method, "fixedRate", fixedRate), initial);
        }
        if (!fixedDelay.isEmpty()) {
            return IntervalTrigger.fixedDelay(duration(method, "fixedDelay", fixedDelay), initial);
        }
        return OnDemandTrigger.INSTANCE;
    }

    private RetryPolicy retry(Method method, AxJob.Retry retry) {
        String timesText = resolve(method, "retry.times", retry.times());
        int times;
        try {
            times = Integer.parseInt(timesText.trim());
        } catch (NumberFormatException e) {
            throw new InvalidJobDefinitionException(
                    describe(method), "retry.times", "'" + timesText + "' is not a number");
        }
        if (times < 0) {
            throw new InvalidJobDefinitionException(describe(method), "retry.times", "must be >= 0, was " + times);
        }
        Duration base = duration(method, "retry.base", resolve(method, "retry.base", retry.base()));
        Duration max = duration(method, "retry.max", resolve(method, "retry.max", retry.max()));
        if (base == null) {
            throw new InvalidJobDefinitionException(describe(method), "retry.base", "must be set");
        }
        if (max == null) {
            throw new InvalidJobDefinitionException(describe(method), "retry.max", "must be set");
        }
        if (max.compareTo(base) < 0) {
            throw new InvalidJobDefinitionException(
                    describe(method), "retry.max", "must not be shorter than retry.base (" + max + " < " + base + ")");
        }
        return new RetryPolicy(times, retry.backoff(), base, max);
    }

    private void checkParameters(Method method) {
        Class<?>[] types = method.getParameterTypes();
        if (types.length > 1 || (types.length == 1 && types[0] != AxContext.class)) {
            throw new InvalidJobDefinitionException(
                    describe(method), "parameters", "the method must take no parameter or one AxContext");
        }
    }

    private ZoneId zone(Method method, String zone) {
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new InvalidJobDefinitionException(describe(method), "zone", "unknown time zone '" + zone + "'");
        }
    }

    private Duration duration(Method method, String attribute, String text) {
        return duration(method, attribute, text, false);
    }

    /** Parses an already resolved {@code 500ms}, {@code 5s}, {@code 2m}, ISO-8601; null when empty; positive unless zero is allowed. */
    private Duration duration(Method method, String attribute, String text, boolean zeroAllowed) {
        String value = text == null ? "" : text.trim();
        if (value.isEmpty()) {
            return null;
        }
        Duration d;
        try {
            d = DurationStyle.detectAndParse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidJobDefinitionException(
                    describe(method),
                    attribute,
                    "'" + value + "' is not a duration (use e.g. 500ms, 5s, 2m, 1h or PT5S)");
        }
        if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
            throw new InvalidJobDefinitionException(
                    describe(method),
                    attribute,
                    "must be " + (zeroAllowed ? "zero or positive" : "positive") + ", was " + value);
        }
        return d;
    }

    private String resolve(Method method, String attribute, String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        try {
            return resolver.apply(value).trim();
        } catch (IllegalArgumentException e) {
            throw new InvalidJobDefinitionException(describe(method), attribute, e.getMessage());
        }
    }

    static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName() + "()";
    }
}
