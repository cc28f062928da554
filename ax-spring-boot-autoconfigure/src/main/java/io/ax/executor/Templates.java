package io.ax.executor;

import io.ax.core.AxContext;
import io.ax.core.AxTask;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ${name}} variables of HTTP and shell tasks: {@code ${instanceId}}, {@code ${attempt}}, {@code
 * ${scheduledTime}} (ISO-8601), {@code ${taskName}} and every parameter of the task by its name. Spring resolves its
 * own placeholders first, when the definition is read; what it leaves is substituted here, per attempt. Stateless.
 */
final class Templates {

    static final Set<String> BUILT_IN = Set.of("instanceId", "attempt", "scheduledTime", "taskName");

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private Templates() {}

    /** The names of the variables {@code template} uses, in order of appearance. */
    static Set<String> variables(String template) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = VARIABLE.matcher(template);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /**
     * Checks that every variable of {@code template} is known.
     *
     * @return null when all are known, else the reason
     */
    static String unknownVariable(String template, Map<String, String> params) {
        for (String name : variables(template)) {
            if (!BUILT_IN.contains(name) && !params.containsKey(name)) {
                return "unknown variable ${" + name + "}: use a parameter of the task or one of " + BUILT_IN;
            }
        }
        return null;
    }

    /** Substitutes the variables of {@code template}, each value passed through {@code encode} first. */
    static String render(String template, Map<String, String> values, UnaryOperator<String> encode) {
        Matcher m = VARIABLE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("unknown variable ${" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(encode.apply(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The values of one attempt: the task's parameters and the built-in variables (which win). */
    static Map<String, String> values(AxTask task, AxContext context) {
        Map<String, String> values = new java.util.HashMap<>(task.params());
        values.put("instanceId", context.instanceId());
        values.put("attempt", Integer.toString(context.attempt()));
        values.put("scheduledTime", context.scheduledTime().toString());
        values.put("taskName", context.taskName());
        return values;
    }
}
