package io.ax.executor;

import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arguments and extra environment of a SHELL task, read from its parameters: {@code args[0]}, {@code args[1]},
 * ... or {@code args.0}, {@code args.1}, ... (numbered from 0 without gaps; in YAML a list under {@code args}, which
 * Spring binds as {@code args.0}, ...) and {@code env.NAME}. Every other parameter
 * is only a variable. Each argument reaches the script as one argument, whatever it holds: no shell ever parses
 * it. Immutable.
 */
record ShellCommand(List<String> args, Map<String, String> env) {

    static final String ENV = "env.";
    /** {@code args[0]} as written, or {@code args.0} as Spring binds a list into a map of strings. */
    private static final Pattern ARG = Pattern.compile("args(?:\\[(\\d{1,4})]|\\.(\\d{1,4}))");

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    static ShellCommand of(AxTask task) {
        Map<Integer, String> numbered = new java.util.TreeMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        task.params().forEach((key, value) -> {
            Matcher m = ARG.matcher(key);
            if (m.matches()) {
                int index = Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2));
                if (numbered.put(index, value) != null) {
                    throw new InvalidTaskException(task.name(), "params." + key, "argument " + index + " is set twice");
                }
                check(task, "params." + key, value);
            } else if (key.startsWith(ENV)) {
                String name = key.substring(ENV.length());
                if (!ENV_NAME.matcher(name).matches()) {
                    throw new InvalidTaskException(
                            task.name(), "params." + key, "'" + name + "' is not an environment variable name");
                }
                check(task, "params." + key, value);
                env.put(name, value);
            }
        });
        List<String> args = new ArrayList<>();
        for (Map.Entry<Integer, String> arg : numbered.entrySet()) {
            if (arg.getKey() != args.size()) {
                throw new InvalidTaskException(
                        task.name(), "params.args[" + args.size() + "]", "arguments are numbered from 0 without gaps");
            }
            args.add(arg.getValue());
        }
        return new ShellCommand(List.copyOf(args), Map.copyOf(env));
    }

    private static void check(AxTask task, String attribute, String template) {
        String unknown = Templates.unknownVariable(template, task.params());
        if (unknown != null) {
            throw new InvalidTaskException(task.name(), attribute, unknown);
        }
    }
}
