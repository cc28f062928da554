package io.ax.autoconfigure.definitions;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Turns an {@link AxJob} annotation into an {@link AxTask}, resolving placeholders and checking every attribute (see
 * {@link TaskDefinitionReader}), so that a bad definition fails start-up with one message naming the method, the
 * attribute and the reason.
 */
final class AxJobDefinitions {

    private final UnaryOperator<String> resolver;
    private final TaskDefinitionReader reader;

    /**
     * @param resolver resolves {@code ${...}} placeholders; throws IllegalArgumentException for unresolvable ones
     * @param reader checks and builds the task
     */
    AxJobDefinitions(UnaryOperator<String> resolver, TaskDefinitionReader reader) {
        this.resolver = resolver;
        this.reader = reader;
    }

    /** The name of the job: its {@code name} attribute, or {@code beanName.methodName}. */
    String nameOf(String beanName, Method method, AxJob job) {
        String name = resolve(method, "name", job.name());
        return name.isEmpty() ? beanName + "." + method.getName() : name;
    }

    AxTask define(String beanName, Method method, AxJob job) {
        String name = nameOf(beanName, method, job);
        checkParameters(method);
        TaskSpec spec = new TaskSpec(
                name,
                AxTask.LOCAL,
                beanName + "." + method.getName(),
                params(method, job.params()),
                resolve(method, "cron", job.cron()),
                resolve(method, "zone", job.zone()),
                resolve(method, "fixedRate", job.fixedRate()),
                resolve(method, "fixedDelay", job.fixedDelay()),
                resolve(method, "initialDelay", job.initialDelay()),
                Arrays.stream(job.dependsOn())
                        .map(d -> resolve(method, "dependsOn", d).trim())
                        .toList(),
                resolve(method, "timeout", job.timeout()),
                job.concurrent(),
                resolve(method, "group", job.group()),
                job.durability(),
                job.misfire(),
                job.priority(),
                job.transactional(),
                job.maxConcurrent(),
                job.mutex().trim(),
                resolve(method, "rate", job.rate()),
                retry(method, job.retry()));
        return reader.read(spec, source(method));
    }

    /** Whether the job sets its own timeout (tasks that do not get the default with a warning). */
    boolean setsTimeout(Method method, AxJob job) {
        return !resolve(method, "timeout", job.timeout()).isEmpty();
    }

    /** The retry settings, or null when the annotation leaves every one at its default. */
    private TaskSpec.Retry retry(Method method, AxJob.Retry retry) {
        if (retry.times().equals("0")
                && retry.backoff() == Backoff.EXPONENTIAL
                && retry.base().equals("1s")
                && retry.max().equals("5m")) {
            return null;
        }
        return new TaskSpec.Retry(
                resolve(method, "retry.times", retry.times()),
                retry.backoff(),
                resolve(method, "retry.base", retry.base()),
                resolve(method, "retry.max", retry.max()));
    }

    private Map<String, String> params(Method method, String[] entries) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String entry : entries) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new InvalidJobDefinitionException(describe(method), "params", "'" + entry + "' is not key=value");
            }
            String key = entry.substring(0, eq).trim();
            if (params.put(key, resolve(method, "params", entry.substring(eq + 1))) != null) {
                throw new InvalidJobDefinitionException(describe(method), "params", "'" + key + "' is set twice");
            }
        }
        return params;
    }

    private void checkParameters(Method method) {
        Class<?>[] types = method.getParameterTypes();
        if (types.length > 1 || (types.length == 1 && types[0] != AxContext.class)) {
            throw new InvalidJobDefinitionException(
                    describe(method), "parameters", "the method must take no parameter or one AxContext");
        }
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

    static TaskSpec.Source source(Method method) {
        String described = describe(method);
        return new TaskSpec.Source() {
            @Override
            public String attribute(String annotationName) {
                return annotationName;
            }

            @Override
            public InvalidJobDefinitionException invalid(String annotationName, String reason) {
                return new InvalidJobDefinitionException(described, annotationName, reason);
            }
        };
    }

    static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName() + "()";
    }
}
