package io.ax.core;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many attempts of a task may run at once across the cluster, beyond its group's pool and cluster limit.
 *
 * @param maxConcurrent at most this many attempts of the task run at once on all nodes together; 0 for no such
 *     limit. Meant for a task whose instances may overlap (delayed executions, {@code concurrent = true}): "no more
 *     than 2 of these 10,000 at once"
 * @param mutex null for none; otherwise a template of a key, of which at most one attempt runs at a time across the
 *     cluster (of this task and of every task whose mutex gives the same key). {@code ${key}} in it stands for the
 *     delayed execution's key (empty when it has none), {@code ${keyPrefix}} for that key up to its first {@code :}
 *     (all of it without one), {@code ${name}} for the parameter {@code name}: the run's, for a run on demand given
 *     parameters, else the task's. E.g. {@code ${keyPrefix}} for keys such as {@code customer-7:charge-1042}
 * @param rate null for none; otherwise at most so many of its attempts start in any window, across the cluster
 */
public record TaskLimits(int maxConcurrent, String mutex, Rate rate) {

    /** No limit of its own. */
    public static final TaskLimits NONE = new TaskLimits(0, null, null);

    /**
     * Limits without a rate.
     *
     * @param maxConcurrent at most this many attempts run at once on all nodes together; 0 for no such limit
     * @param mutex null for none; otherwise a template of a key, see {@link #mutex()}
     * @throws IllegalArgumentException when a component breaks its rule (see the canonical constructor)
     */
    public TaskLimits(int maxConcurrent, String mutex) {
        this(maxConcurrent, mutex, null);
    }

    /** The longest mutex template, in characters. */
    public static final int MAX_MUTEX_LENGTH = 200;

    /** The variable that stands for a delayed execution's key. */
    public static final String KEY = "key";

    /** The variable that stands for a delayed execution's key up to its first {@code :}. */
    public static final String KEY_PREFIX = "keyPrefix";

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    /**
     * Checks the components. Whether the mutex's variables are the task's parameters is checked by {@link AxTask}.
     *
     * @param maxConcurrent 0 or more; 0 for no such limit
     * @param mutex null, or 1 to {@value #MAX_MUTEX_LENGTH} characters, not blank, whose every {@code ${...}} names a
     *     variable of letters, digits, {@code .}, {@code _} and {@code -}
     * @param rate null for none
     * @throws IllegalArgumentException when a component breaks its rule
     */
    public TaskLimits {
        if (maxConcurrent < 0) {
            throw new IllegalArgumentException("maxConcurrent must be 0 (no limit) or more, was " + maxConcurrent);
        }
        if (mutex != null) {
            if (mutex.isBlank() || mutex.length() > MAX_MUTEX_LENGTH) {
                throw new IllegalArgumentException(
                        "a mutex has 1 to " + MAX_MUTEX_LENGTH + " characters, was '" + mutex + "'");
            }
            Matcher m = VARIABLE.matcher(mutex);
            while (m.find()) {
                if (!m.group(1).matches("[A-Za-z0-9._\\-]+")) {
                    throw new IllegalArgumentException("mutex '" + mutex + "': '" + m.group()
                            + "' is no variable; write ${key}, ${keyPrefix} or ${<parameter name>}");
                }
            }
        }
    }

    /** {@return whether the task has a limit of its own: a count, a mutex or a rate} */
    public boolean any() {
        return maxConcurrent > 0 || mutex != null || rate != null;
    }

    /** {@return the names of the variables the mutex names, in order, repeats included; empty without a mutex} */
    public java.util.List<String> mutexVariables() {
        if (mutex == null) {
            return java.util.List.of();
        }
        java.util.List<String> names = new java.util.ArrayList<>();
        Matcher m = VARIABLE.matcher(mutex);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /**
     * Makes the mutex's key for one instance: each {@code ${key}} replaced by {@code instanceKey} (empty when null),
     * each {@code ${keyPrefix}} by {@code instanceKey} up to its first {@code :}, each other variable by the parameter
     * of that name.
     *
     * @param params the parameters the instance runs with: the task's, or a run's laid over them
     * @param instanceKey the instance's key (a delayed execution's), or null
     * @return the key of which at most one attempt runs at a time across the cluster
     * @throws IllegalArgumentException when a variable names no parameter in {@code params}
     * @throws NullPointerException when these limits have no mutex
     */
    public String mutexKey(java.util.Map<String, String> params, String instanceKey) {
        Matcher m = VARIABLE.matcher(mutex);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String key = instanceKey == null ? "" : instanceKey;
            String value = KEY.equals(name)
                    ? key
                    : KEY_PREFIX.equals(name) ? key.substring(0, prefixEnd(key)) : params.get(name);
            if (value == null) {
                throw new IllegalArgumentException("mutex '" + mutex + "' names ${" + name
                        + "}, which is neither ${key}, ${keyPrefix} nor a parameter");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * {@return whether the mutex names a variable other than {@code ${key}} and {@code ${keyPrefix}}} A run's
     * parameters may then be needed to make its key.
     */
    public boolean mutexNamesParameters() {
        return mutexVariables().stream().anyMatch(v -> !KEY.equals(v) && !KEY_PREFIX.equals(v));
    }

    private static int prefixEnd(String key) {
        int colon = key.indexOf(':');
        return colon < 0 ? key.length() : colon;
    }
}
