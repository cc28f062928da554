package io.ax.core.engine.definitions;

import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.MisfirePolicy;
import io.ax.core.Rate;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskLimits;
import io.ax.core.cron.CronExpression;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import io.ax.core.trigger.SpacedTrigger;
import io.ax.core.trigger.Trigger;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A task as text, for the store's runtime definitions: {@code key=value} lines (the JDK's properties format, which
 * escapes whatever a value holds), sorted so that the same task always reads the same. Reading it back parses the
 * cron expression again, in the syntax it was written in (a Spring expression is marked so), with the same checks as
 * at definition time. Stateless.
 */
final class TaskDefinitionText {

    private static final String PARAM = "param.";

    private TaskDefinitionText() {}

    static String write(AxTask task) {
        Map<String, String> p = new TreeMap<>();
        p.put("name", task.name());
        p.put("type", task.type());
        p.put("target", task.target());
        task.params().forEach((k, v) -> p.put(PARAM + k, v));
        Trigger trigger = task.trigger();
        if (trigger instanceof SpacedTrigger spaced) {
            p.put("min-spacing", spaced.minSpacing().toString()); // absent means none: texts stored before it match
            trigger = spaced.trigger();
        }
        if (trigger instanceof CronTrigger cron) {
            p.put("trigger", "cron");
            p.put("cron", cron.expression().toString());
            p.put("zone", cron.zone().getId());
            if (cron.expression().syntax() == CronExpression.Syntax.SPRING) {
                // the same text can mean other times in Quartz's syntax; absent means Quartz: older texts match
                p.put("cron-syntax", "spring");
            }
            if (cron.from() != null) {
                p.put("from", cron.from().toString()); // absent: texts stored before it read the same
            }
        } else if (trigger instanceof IntervalTrigger interval) {
            p.put("trigger", interval.fixedDelay() ? "fixed-delay" : "fixed-rate");
            p.put("period", interval.period().toString());
            p.put("initial-delay", interval.initialDelay().toString());
            if (interval.start() != null) {
                p.put("start", interval.start().toString()); // absent: texts stored before it read the same
            }
        } else if (trigger instanceof DependencyTrigger dependency) {
            p.put("trigger", "depends-on");
            p.put("depends-on", String.join(",", dependency.upstream())); // task names hold no comma
        } else {
            p.put("trigger", "on-demand");
        }
        RetryPolicy retry = task.retry();
        p.put("retry.times", Integer.toString(retry.maxRetries()));
        p.put("retry.backoff", retry.backoff().name());
        p.put("retry.base", retry.base().toString());
        p.put("retry.max", retry.max().toString());
        p.put("timeout", task.timeout().toString());
        p.put("concurrent", Boolean.toString(task.concurrent()));
        p.put("group", task.group());
        p.put("durability", task.durability().name());
        p.put("misfire", task.misfire().name());
        if (task.priority() != 0) {
            p.put("priority", Integer.toString(task.priority())); // absent means 0: texts stored before it match
        }
        if (task.transactional()) {
            p.put("transactional", "true"); // absent means false, likewise
        }
        if (task.limits().maxConcurrent() > 0) {
            p.put("max-concurrent", Integer.toString(task.limits().maxConcurrent()));
        }
        if (task.limits().mutex() != null) {
            p.put("mutex", task.limits().mutex());
        }
        if (task.limits().rate() != null) {
            p.put("rate", task.limits().rate().toString());
        }
        StringBuilder text = new StringBuilder();
        p.forEach((k, v) -> text.append(escape(k, true))
                .append('=')
                .append(escape(v, false))
                .append('\n'));
        return text.toString();
    }

    static AxTask read(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> params = new LinkedHashMap<>();
        new TreeMap<>(p).forEach((k, v) -> {
            String key = (String) k;
            if (key.startsWith(PARAM)) {
                params.put(key.substring(PARAM.length()), (String) v);
            }
        });
        return AxTask.builder(get(p, "name"))
                .type(get(p, "type"))
                .target(get(p, "target"))
                .params(params)
                .trigger(trigger(p))
                .retry(new RetryPolicy(
                        Integer.parseInt(get(p, "retry.times")),
                        Backoff.valueOf(get(p, "retry.backoff")),
                        Duration.parse(get(p, "retry.base")),
                        Duration.parse(get(p, "retry.max"))))
                .timeout(Duration.parse(get(p, "timeout")))
                .concurrent(Boolean.parseBoolean(get(p, "concurrent")))
                .group(get(p, "group"))
                .durability(Durability.valueOf(get(p, "durability")))
                .misfire(MisfirePolicy.valueOf(get(p, "misfire")))
                .priority(Integer.parseInt(p.getProperty("priority", "0")))
                .transactional(Boolean.parseBoolean(p.getProperty("transactional", "false")))
                .limits(new TaskLimits(
                        Integer.parseInt(p.getProperty("max-concurrent", "0")),
                        p.getProperty("mutex"),
                        p.getProperty("rate") == null ? null : Rate.parse(p.getProperty("rate"))))
                .build();
    }

    private static Trigger trigger(Properties p) {
        Trigger trigger = unspaced(p);
        String spacing = p.getProperty("min-spacing");
        return spacing == null ? trigger : new SpacedTrigger(trigger, Duration.parse(spacing));
    }

    private static Trigger unspaced(Properties p) {
        return switch (get(p, "trigger")) {
            case "cron" -> cron(p);
            case "fixed-rate" ->
                p.getProperty("start") == null
                        ? IntervalTrigger.fixedRate(
                                Duration.parse(get(p, "period")), Duration.parse(get(p, "initial-delay")))
                        : IntervalTrigger.fixedRateFrom(
                                Duration.parse(get(p, "period")), Instant.parse(p.getProperty("start")));
            case "fixed-delay" ->
                IntervalTrigger.fixedDelay(Duration.parse(get(p, "period")), Duration.parse(get(p, "initial-delay")));
            case "depends-on" ->
                new DependencyTrigger(Arrays.asList(get(p, "depends-on").split(",")));
            case "on-demand" -> OnDemandTrigger.INSTANCE;
            default -> throw new IllegalArgumentException("unknown trigger '" + p.getProperty("trigger") + "'");
        };
    }

    private static CronTrigger cron(Properties p) {
        String syntax = p.getProperty("cron-syntax", "quartz");
        CronTrigger cron = switch (syntax) {
            case "quartz" -> CronTrigger.of(get(p, "cron"), ZoneId.of(get(p, "zone")));
            case "spring" -> CronTrigger.ofSpring(get(p, "cron"), ZoneId.of(get(p, "zone")));
            default -> throw new IllegalArgumentException("unknown cron syntax '" + syntax + "'");
        };
        String from = p.getProperty("from");
        return from == null ? cron : cron.firstFireFrom(Instant.parse(from));
    }

    private static String get(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("the stored definition has no '" + key + "'");
        }
        return value;
    }

    /** The properties format's escapes: backslash, line breaks, leading spaces, and in keys the separators. */
    private static String escape(String s, boolean key) {
        StringWriter out = new StringWriter(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.write("\\\\");
                case '\n' -> out.write("\\n");
                case '\r' -> out.write("\\r");
                case '\t' -> out.write("\\t");
                case '\f' -> out.write("\\f");
                case '=', ':', '#', '!' -> {
                    if (key || i == 0) {
                        out.write('\\');
                    }
                    out.write(c);
                }
                case ' ' -> {
                    if (key || i == 0) {
                        out.write('\\');
                    }
                    out.write(c);
                }
                default -> out.write(c);
            }
        }
        return out.toString();
    }
}
