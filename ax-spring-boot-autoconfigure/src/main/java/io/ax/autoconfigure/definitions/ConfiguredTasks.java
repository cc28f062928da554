package io.ax.autoconfigure.definitions;

import io.ax.core.AxTask;
import java.util.List;
import java.util.Map;

/**
 * Turns the {@code ax.tasks.<name>} entries into task definitions, with the same checks and reasons as an
 * {@code @AxJob} (see {@link TaskDefinitionReader}); attributes are named as in the properties ({@code
 * trigger.fixed-rate}).
 */
final class ConfiguredTasks {

    private static final Map<String, String> PROPERTY_NAMES = Map.of(
            "cron", "trigger.cron",
            "zone", "trigger.zone",
            "fixedRate", "trigger.fixed-rate",
            "fixedDelay", "trigger.fixed-delay",
            "initialDelay", "trigger.initial-delay",
            "dependsOn", "trigger.depends-on");

    private final TaskDefinitionReader reader;

    ConfiguredTasks(TaskDefinitionReader reader) {
        this.reader = reader;
    }

    AxTask define(String name, AxTaskProperties.Task task) {
        TaskSpec.Source source = source(name);
        if (isBlank(task.getType())) {
            throw source.invalid(
                    "type", "must be set: LOCAL, HTTP, SHELL or the type an AxExecutor bean of yours claims");
        }
        if (isBlank(task.getTarget())) {
            throw source.invalid(
                    "target",
                    "must be set: for LOCAL beanName.methodName, for HTTP the URL, for" + " SHELL the script");
        }
        AxTaskProperties.Trigger trigger = task.getTrigger();
        AxTaskProperties.Retry retry = task.getRetry();
        TaskSpec spec = new TaskSpec(
                name,
                task.getType().trim(),
                task.getTarget().trim(),
                params(task.getParams()),
                text(trigger.getCron()),
                text(trigger.getZone()),
                text(trigger.getFixedRate()),
                text(trigger.getFixedDelay()),
                text(trigger.getInitialDelay()),
                trigger.getDependsOn() == null
                        ? List.of()
                        : trigger.getDependsOn().stream()
                                .map(d -> d == null ? "" : d.trim())
                                .toList(),
                text(task.getTimeout()),
                task.isConcurrent(),
                text(task.getGroup()),
                task.getDurability(),
                task.getMisfire(),
                task.getPriority(),
                task.isTransactional(),
                task.getMaxConcurrent(),
                text(task.getMutex()),
                text(task.getRate()),
                retry == null
                        ? null
                        : new TaskSpec.Retry(retry.getTimes(), retry.getBackoff(), retry.getBase(), retry.getMax()));
        return reader.read(spec, source);
    }

    static TaskSpec.Source source(String name) {
        return new TaskSpec.Source() {
            @Override
            public String attribute(String annotationName) {
                return PROPERTY_NAMES.getOrDefault(annotationName, annotationName);
            }

            @Override
            public InvalidJobDefinitionException invalid(String annotationName, String reason) {
                return InvalidJobDefinitionException.ofProperties(name, attribute(annotationName), reason);
            }
        };
    }

    /** An empty YAML value binds as null; a parameter given without a value is an empty string. */
    private static Map<String, String> params(Map<String, String> params) {
        Map<String, String> copy = new java.util.LinkedHashMap<>();
        if (params != null) {
            params.forEach((k, v) -> copy.put(k, v == null ? "" : v));
        }
        return copy;
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String text(String s) {
        return s == null ? "" : s.trim();
    }
}
