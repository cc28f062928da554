package io.ax.autoconfigure.definitions;

import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.MisfirePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Tasks defined in properties and the default retry policy, under {@code ax.tasks} and {@code ax.retry}. */
@ConfigurationProperties("ax")
public class AxTaskProperties {

    /**
     * Tasks defined in configuration, by name, checked at start-up like @AxJob methods. Each takes type (LOCAL, HTTP,
     * SHELL or your executor's), target (beanName.methodName, a URL or a script), params, trigger (cron and zone,
     * fixed-rate, fixed-delay and initial-delay, or depends-on; none for a task run on demand), retry (times,
     * backoff, base, max), timeout (60s), concurrent, group, priority, transactional, max-concurrent, mutex, rate,
     * durability (PERSISTENT or MEMORY) and misfire (FIRE_ONCE, SKIP or FIRE_ALL), as the @AxJob attributes of the same
     * names. Durations take 500ms, 5s, 2m, 1h, 1d or ISO-8601.
     */
    private final Map<String, Task> tasks = new LinkedHashMap<>();

    /** The retry policy of tasks (annotated or configured) that set none. */
    private final DefaultRetry retry = new DefaultRetry();

    public Map<String, Task> getTasks() {
        return tasks;
    }

    public DefaultRetry getRetry() {
        return retry;
    }

    /** One task defined in configuration. */
    public static class Task {

        /** The executor type: LOCAL (a bean method), HTTP, SHELL, or the type of an AxExecutor bean of yours. */
        private String type;

        /** What the executor runs: for LOCAL beanName.methodName, for HTTP the URL, for SHELL the script. */
        private String target;

        /**
         * Parameters: HTTP reads method, body, header.<Name> and success-status; SHELL reads args (a list) and
         * env.<NAME>; every parameter is also a ${name} variable of the target, body, headers and arguments.
         */
        private Map<String, String> params = new LinkedHashMap<>();

        /** When it fires; none makes an on-demand task. */
        private final Trigger trigger = new Trigger();

        /** How failed attempts are retried; default ax.retry. */
        private Retry retry;

        /** How long one attempt may run; default 60s (with a warning at start-up). */
        private String timeout;

        /** Whether a fire may start while the previous instance is still running; if not, the fire is SKIPPED. */
        private boolean concurrent;

        /** The execution pool (ax.pools.<group>); default 'default'. */
        private String group;

        /** Which due instances of the group start first when its pool is saturated: higher first, -1000 to 1000. */
        private int priority;

        /** Whether each attempt runs in one transaction with the record of its success (a JDBC store only). */
        private boolean transactional;

        /** At most this many attempts of the task run at once on all nodes together; 0 for no such limit. */
        private int maxConcurrent;

        /**
         * A key of which at most one attempt runs at a time across the cluster: ${key} is the delayed execution's
         * key, ${name} the task's parameter 'name'.
         */
        private String mutex;

        /** At most so many attempts start in any window across the cluster: <count>/<window>, e.g. 100/1m. */
        private String rate;

        public String getRate() {
            return rate;
        }

        public void setRate(String rate) {
            this.rate = rate;
        }

        public int getMaxConcurrent() {
            return maxConcurrent;
        }

        public void setMaxConcurrent(int maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
        }

        public String getMutex() {
            return mutex;
        }

        public void setMutex(String mutex) {
            this.mutex = mutex;
        }

        /** Where its instances live: PERSISTENT in the store, MEMORY only in this process. */
        private Durability durability = Durability.PERSISTENT;

        /** What happens to fire times missed while nothing ran. */
        private MisfirePolicy misfire = MisfirePolicy.FIRE_ONCE;

        public String getType() {
            return type;
        }

        public void setType(String type) {
            this.type = type;
        }

        public String getTarget() {
            return target;
        }

        public void setTarget(String target) {
            this.target = target;
        }

        public Map<String, String> getParams() {
            return params;
        }

        public void setParams(Map<String, String> params) {
            this.params = params;
        }

        public Trigger getTrigger() {
            return trigger;
        }

        public Retry getRetry() {
            return retry;
        }

        public void setRetry(Retry retry) {
            this.retry = retry;
        }

        public String getTimeout() {
            return timeout;
        }

        public void setTimeout(String timeout) {
            this.timeout = timeout;
        }

        public boolean isConcurrent() {
            return concurrent;
        }

        public void setConcurrent(boolean concurrent) {
            this.concurrent = concurrent;
        }

        public boolean isTransactional() {
            return transactional;
        }

        public void setTransactional(boolean transactional) {
            this.transactional = transactional;
        }

        public int getPriority() {
            return priority;
        }

        public void setPriority(int priority) {
            this.priority = priority;
        }

        public String getGroup() {
            return group;
        }

        public void setGroup(String group) {
            this.group = group;
        }

        public Durability getDurability() {
            return durability;
        }

        public void setDurability(Durability durability) {
            this.durability = durability;
        }

        public MisfirePolicy getMisfire() {
            return misfire;
        }

        public void setMisfire(MisfirePolicy misfire) {
            this.misfire = misfire;
        }
    }

    /** The trigger of a configured task: at most one of cron, fixed-rate and fixed-delay. */
    public static class Trigger {

        /** Quartz cron expression (seconds first, optional year) or a macro such as @daily. */
        private String cron;

        /** Time zone of the cron expression; default ax.default-zone. */
        private String zone;

        /** Period between fire times, counted from the previous fire time. */
        private String fixedRate;

        /** Period between fires, counted from the end of the previous run. */
        private String fixedDelay;

        /** Wait before the first fire of a fixed-rate or fixed-delay task. */
        private String initialDelay;

        /**
         * The tasks this one waits for: it runs once all of them ended SUCCESS in the same workflow run. Excludes
         * cron, fixed-rate and fixed-delay.
         */
        private List<String> dependsOn = new ArrayList<>();

        public String getCron() {
            return cron;
        }

        public void setCron(String cron) {
            this.cron = cron;
        }

        public String getZone() {
            return zone;
        }

        public void setZone(String zone) {
            this.zone = zone;
        }

        public String getFixedRate() {
            return fixedRate;
        }

        public void setFixedRate(String fixedRate) {
            this.fixedRate = fixedRate;
        }

        public String getFixedDelay() {
            return fixedDelay;
        }

        public void setFixedDelay(String fixedDelay) {
            this.fixedDelay = fixedDelay;
        }

        public String getInitialDelay() {
            return initialDelay;
        }

        public void setInitialDelay(String initialDelay) {
            this.initialDelay = initialDelay;
        }

        public List<String> getDependsOn() {
            return dependsOn;
        }

        public void setDependsOn(List<String> dependsOn) {
            this.dependsOn = dependsOn;
        }
    }

    /** The retry settings of a configured task. */
    public static class Retry {

        /** Retries after the first attempt; 0 = none. */
        private String times = "0";

        /** How the wait grows between retries. */
        private Backoff backoff = Backoff.EXPONENTIAL;

        /** The wait before the first retry. */
        private String base = "1s";

        /** The longest wait between retries. */
        private String max = "5m";

        public String getTimes() {
            return times;
        }

        public void setTimes(String times) {
            this.times = times;
        }

        public Backoff getBackoff() {
            return backoff;
        }

        public void setBackoff(Backoff backoff) {
            this.backoff = backoff;
        }

        public String getBase() {
            return base;
        }

        public void setBase(String base) {
            this.base = base;
        }

        public String getMax() {
            return max;
        }

        public void setMax(String max) {
            this.max = max;
        }
    }

    /** The retry policy of tasks that set none. */
    public static class DefaultRetry {

        /** Retries after the first attempt; 0 = none. */
        private int times = 0;

        /** How the wait grows between retries. */
        private Backoff backoff = Backoff.EXPONENTIAL;

        /** The wait before the first retry. */
        private Duration base = Duration.ofSeconds(1);

        /** The longest wait between retries. */
        private Duration max = Duration.ofMinutes(5);

        /**
         * How many times a running attempt is run again when its node crashed, froze, was cut off from the store or
         * restarted while it ran (a takeover), whatever a task's retries say and without using them up; the next
         * takeover makes the instance DEAD. 0 = never run again after a takeover.
         */
        private int takeovers = 3;

        public int getTimes() {
            return times;
        }

        public void setTimes(int times) {
            this.times = times;
        }

        public Backoff getBackoff() {
            return backoff;
        }

        public void setBackoff(Backoff backoff) {
            this.backoff = backoff;
        }

        public Duration getBase() {
            return base;
        }

        public void setBase(Duration base) {
            this.base = base;
        }

        public Duration getMax() {
            return max;
        }

        public void setMax(Duration max) {
            this.max = max;
        }

        public int getTakeovers() {
            return takeovers;
        }

        public void setTakeovers(int takeovers) {
            this.takeovers = takeovers;
        }
    }
}
