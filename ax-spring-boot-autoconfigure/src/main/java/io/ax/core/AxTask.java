package io.ax.core;

import io.ax.core.trigger.OnDemandTrigger;
import io.ax.core.trigger.Trigger;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The static definition of a task. Build one with {@link #builder(String)}. Immutable; the constructor checks its
 * components, so a task that exists is well formed (its executor checks the rest, see {@link AxExecutor#check}).
 *
 * @param name unique name, 1-200 characters of letters, digits and {@code . _ - : $}
 * @param type the executor type, e.g. {@link #LOCAL}; an executor router picks the executor by it
 * @param target what the executor runs (for LOCAL: {@code bean.method})
 * @param params static parameters handed to the executor, in the order they were declared; unmodifiable
 * @param trigger when it fires: a cron expression, an interval, on demand only, or after its upstream tasks
 * @param retry how failures are retried
 * @param timeout how long one attempt may run before it is interrupted; positive
 * @param concurrent whether a fire may start while the previous instance is still running
 * @param group the execution pool it runs in ({@code ax.pools.<group>}): 1 to 64 letters, digits, underscores and
 *     hyphens
 * @param durability where its instances live
 * @param misfire what happens to fire times missed while nothing ran
 * @param priority which of its group's due instances start first when the group's pool is saturated: higher first,
 *     equal priorities in the order they fell due; from {@value #MIN_PRIORITY} to {@value #MAX_PRIORITY}, default
 *     0. It orders one node's pool: an instance that has waited in the pool's queue for the pool's overtake limit is
 *     no longer overtaken, so a low priority is delayed, never starved.
 * @param transactional whether each attempt runs inside one transaction of the store's database that also records
 *     its success: the handler's own writes on that database and the instance's {@code RUNNING -> SUCCESS} commit
 *     together or not at all (see {@code AttemptTransactions})
 * @param limits how many of its attempts may run at once, or start in a window, across the cluster: a count, a mutex, a
 *     rate, or none
 */
public record AxTask(
        String name,
        String type,
        String target,
        Map<String, String> params,
        Trigger trigger,
        RetryPolicy retry,
        Duration timeout,
        boolean concurrent,
        String group,
        Durability durability,
        MisfirePolicy misfire,
        int priority,
        boolean transactional,
        TaskLimits limits) {

    /** The type of tasks that invoke a bean method in this JVM. */
    public static final String LOCAL = "LOCAL";

    /** The pool used when a task names none. */
    public static final String DEFAULT_GROUP = "default";

    /** The timeout used when a task sets none. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** The lowest priority a task or a request may have. */
    public static final int MIN_PRIORITY = -1000;

    /** The highest priority a task or a request may have. */
    public static final int MAX_PRIORITY = 1000;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._\\-:$]{1,200}");
    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_\\-]{1,64}");

    /**
     * The parameters in the order they were declared (a form built from them, the console's, keeps it across
     * restarts), unmodifiable; neither a name nor a value may be null.
     */
    private static Map<String, String> inOrder(Map<String, String> params, String task) {
        java.util.LinkedHashMap<String, String> copy = new java.util.LinkedHashMap<>();
        params.forEach((k, v) -> copy.put(
                Objects.requireNonNull(k, "a parameter name of task " + task),
                Objects.requireNonNull(v, "parameter '" + k + "' of task " + task)));
        return java.util.Collections.unmodifiableMap(copy);
    }

    /**
     * Checks and copies the components.
     *
     * @param name 1-200 characters of letters, digits and {@code . _ - : $}
     * @param type the executor type; not null
     * @param target what the executor runs; not null, may be empty
     * @param params static parameters; neither a name nor a value may be null. Copied in their order
     * @param trigger when it fires; not null
     * @param retry how failures are retried; not null
     * @param timeout how long one attempt may run; positive
     * @param concurrent whether a fire may start while the previous instance is still running
     * @param group the execution pool: 1 to 64 letters, digits, underscores and hyphens
     * @param durability where its instances live; not null
     * @param misfire what happens to missed fire times; not null
     * @param priority from {@value #MIN_PRIORITY} to {@value #MAX_PRIORITY}
     * @param transactional whether each attempt runs inside one transaction with the record of its success
     * @param limits its cluster-wide limits; not null ({@link TaskLimits#NONE} for none). A mutex may name only {@code
     *     ${key}}, {@code ${keyPrefix}} and the task's parameters
     * @throws NullPointerException when a component that must be given is null, naming it and the task
     * @throws IllegalArgumentException when a component breaks its rule, naming it and the task
     */
    public AxTask {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "task name '" + name + "' must be 1-200 characters of letters, digits and . _ - : $");
        }
        Objects.requireNonNull(type, "type of task " + name);
        Objects.requireNonNull(target, "target of task " + name);
        params = inOrder(Objects.requireNonNull(params, "params of task " + name), name);
        Objects.requireNonNull(trigger, "trigger of task " + name);
        Objects.requireNonNull(retry, "retry of task " + name);
        Objects.requireNonNull(timeout, "timeout of task " + name);
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout of task " + name + " must be positive, was " + timeout);
        }
        Objects.requireNonNull(group, "group of task " + name);
        if (!GROUP.matcher(group).matches()) {
            throw new IllegalArgumentException(
                    "group '" + group + "' of task " + name + " must be 1-64 characters of letters, digits, _ and -");
        }
        Objects.requireNonNull(durability, "durability of task " + name);
        Objects.requireNonNull(misfire, "misfire policy of task " + name);
        checkPriority(priority, "priority of task " + name);
        Objects.requireNonNull(limits, "limits of task " + name);
        for (String variable : limits.mutexVariables()) {
            if (!TaskLimits.KEY.equals(variable)
                    && !TaskLimits.KEY_PREFIX.equals(variable)
                    && !params.containsKey(variable)) {
                throw new IllegalArgumentException("mutex '" + limits.mutex() + "' of task " + name + " names ${"
                        + variable + "}, which is neither ${key}, ${keyPrefix} nor a parameter of the task");
            }
        }
    }

    /**
     * A task without limits of its own.
     *
     * @param name the task's name, unique in the application
     * @param type the executor type
     * @param target what the executor runs
     * @param params static parameters
     * @param trigger when it fires
     * @param retry how failures are retried
     * @param timeout how long one attempt may run; positive
     * @param concurrent whether a fire may start while the previous instance is still running
     * @param group the execution pool
     * @param durability where its instances live
     * @param misfire what happens to missed fire times
     * @param priority from {@value #MIN_PRIORITY} to {@value #MAX_PRIORITY}
     * @param transactional whether each attempt runs inside one transaction with the record of its success
     * @throws NullPointerException when a component that must be given is null
     * @throws IllegalArgumentException when a component breaks its rule
     */
    public AxTask(
            String name,
            String type,
            String target,
            Map<String, String> params,
            Trigger trigger,
            RetryPolicy retry,
            Duration timeout,
            boolean concurrent,
            String group,
            Durability durability,
            MisfirePolicy misfire,
            int priority,
            boolean transactional) {
        this(
                name,
                type,
                target,
                params,
                trigger,
                retry,
                timeout,
                concurrent,
                group,
                durability,
                misfire,
                priority,
                transactional,
                TaskLimits.NONE);
    }

    /**
     * A task of the default priority, 0, whose attempts run outside a transaction, without limits of its own.
     *
     * @param name the task's name, unique in the application
     * @param type the executor type
     * @param target what the executor runs
     * @param params static parameters
     * @param trigger when it fires
     * @param retry how failures are retried
     * @param timeout how long one attempt may run; positive
     * @param concurrent whether a fire may start while the previous instance is still running
     * @param group the execution pool
     * @param durability where its instances live
     * @param misfire what happens to missed fire times
     * @throws NullPointerException when a component that must be given is null
     * @throws IllegalArgumentException when a component breaks its rule
     */
    public AxTask(
            String name,
            String type,
            String target,
            Map<String, String> params,
            Trigger trigger,
            RetryPolicy retry,
            Duration timeout,
            boolean concurrent,
            String group,
            Durability durability,
            MisfirePolicy misfire) {
        this(name, type, target, params, trigger, retry, timeout, concurrent, group, durability, misfire, 0, false);
    }

    /**
     * @throws IllegalArgumentException when {@code priority} is outside {@value #MIN_PRIORITY} to {@value
     *     #MAX_PRIORITY}
     */
    static int checkPriority(int priority, String what) {
        if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException(
                    what + " must be between " + MIN_PRIORITY + " and " + MAX_PRIORITY + ", was " + priority);
        }
        return priority;
    }

    /**
     * A builder with the defaults: LOCAL, an empty target, no parameters, on demand, no retry, 60 s timeout, not
     * concurrent, default group, PERSISTENT, FIRE_ONCE on misfire, priority 0, not transactional, no limits.
     *
     * @param name the task's name, unique in the application; checked by {@link Builder#build()}
     * @return a new builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builds an {@link AxTask}; not thread-safe. */
    public static final class Builder {
        private final String name;
        private String type = LOCAL;
        private String target = "";
        private Map<String, String> params = Map.of();
        private Trigger trigger = OnDemandTrigger.INSTANCE;
        private RetryPolicy retry = RetryPolicy.none();
        private Duration timeout = DEFAULT_TIMEOUT;
        private boolean concurrent;
        private String group = DEFAULT_GROUP;
        private Durability durability = Durability.PERSISTENT;
        private MisfirePolicy misfire = MisfirePolicy.FIRE_ONCE;
        private int priority;
        private boolean transactional;
        private TaskLimits limits = TaskLimits.NONE;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Sets the executor type; default {@link #LOCAL}.
         *
         * @param type the type an executor claims ({@link AxExecutor#matchTaskType})
         * @return this builder
         */
        public Builder type(String type) {
            this.type = type;
            return this;
        }

        /**
         * Sets what the executor runs; default empty.
         *
         * @param target for LOCAL, {@code bean.method}; for other types, what their executor reads
         * @return this builder
         */
        public Builder target(String target) {
            this.target = target;
            return this;
        }

        /**
         * Sets the static parameters; default none. They are copied, in their order, by {@link #build()}.
         *
         * @param params the parameters by name; neither a name nor a value may be null
         * @return this builder
         */
        public Builder params(Map<String, String> params) {
            this.params = params;
            return this;
        }

        /**
         * Sets when the task fires; default on demand only.
         *
         * @param trigger a cron, interval, on-demand or dependency trigger
         * @return this builder
         */
        public Builder trigger(Trigger trigger) {
            this.trigger = trigger;
            return this;
        }

        /**
         * Sets how failures are retried; default {@link RetryPolicy#none()}.
         *
         * @param retry the retry policy
         * @return this builder
         */
        public Builder retry(RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        /**
         * Sets how long one attempt may run before its thread is interrupted; default {@link #DEFAULT_TIMEOUT}.
         *
         * @param timeout the timeout; positive
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets whether a fire may start while the previous instance is still running; default false, the fire is then
         * SKIPPED.
         *
         * @param concurrent true to let fires overlap
         * @return this builder
         */
        public Builder concurrent(boolean concurrent) {
            this.concurrent = concurrent;
            return this;
        }

        /**
         * Sets the execution pool; default {@link #DEFAULT_GROUP}.
         *
         * @param group the pool's name: 1 to 64 letters, digits, underscores and hyphens
         * @return this builder
         */
        public Builder group(String group) {
            this.group = group;
            return this;
        }

        /**
         * Sets where the task's instances live; default PERSISTENT.
         *
         * @param durability PERSISTENT or MEMORY
         * @return this builder
         */
        public Builder durability(Durability durability) {
            this.durability = durability;
            return this;
        }

        /**
         * Sets what happens to fire times missed while nothing ran; default FIRE_ONCE.
         *
         * @param misfire the misfire policy
         * @return this builder
         */
        public Builder misfire(MisfirePolicy misfire) {
            this.misfire = misfire;
            return this;
        }

        /**
         * Sets the priority: higher starts first when the group's pool is saturated; default 0.
         *
         * @param priority from {@value AxTask#MIN_PRIORITY} to {@value AxTask#MAX_PRIORITY}
         * @return this builder
         */
        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        /**
         * Sets whether each attempt runs in one transaction with the record of its success; default false.
         *
         * @param transactional true to run each attempt in such a transaction (see {@link AxTask#transactional()})
         * @return this builder
         */
        public Builder transactional(boolean transactional) {
            this.transactional = transactional;
            return this;
        }

        /**
         * Sets how many attempts may run at once, or start in a window, across the cluster; default none.
         *
         * @param limits the limits; {@link TaskLimits#NONE} for none
         * @return this builder
         */
        public Builder limits(TaskLimits limits) {
            this.limits = limits;
            return this;
        }

        /**
         * Builds the task.
         *
         * @return the task
         * @throws NullPointerException when a component that must be given is null
         * @throws IllegalArgumentException when a component breaks its rule (see {@link AxTask})
         */
        public AxTask build() {
            return new AxTask(
                    name,
                    type,
                    target,
                    params,
                    trigger,
                    retry,
                    timeout,
                    concurrent,
                    group,
                    durability,
                    misfire,
                    priority,
                    transactional,
                    limits);
        }
    }
}
