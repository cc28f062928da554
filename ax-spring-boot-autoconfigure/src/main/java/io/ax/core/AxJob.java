package io.ax.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as an AX task. The method takes no parameter or one {@link AxContext}; its return value is
 * ignored unless it is an {@link AxResult}.
 *
 * <p>Set at most one trigger: {@link #cron()}, {@link #fixedRate()} or {@link #fixedDelay()}. With none the method
 * is an on-demand handler, run only when triggered through the API. Durations accept {@code 500ms}, {@code 5s},
 * {@code 2m}, {@code 1h}, {@code 1d} and ISO-8601 ({@code PT5S}); every string attribute may use {@code ${...}}
 * placeholders resolved from the environment.
 *
 * <pre>{@code
 * @AxJob(cron = "0/5 * * * * ?", timeout = "10s", retry = @AxJob.Retry(times = 3, base = "1s"))
 * void report(AxContext context) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AxJob {

    /** Unique task name; default {@code beanName.methodName}. */
    String name() default "";

    /** Quartz cron expression (seconds first, optional year). */
    String cron() default "";

    /** Time zone of {@link #cron()}; default {@code ax.default-zone} (UTC unless configured). */
    String zone() default "";

    /** Period between fire times, counted from the previous fire time. */
    String fixedRate() default "";

    /** Period between fires, counted from the end of the previous run. */
    String fixedDelay() default "";

    /**
     * The tasks this one waits for: it runs once all of them have ended SUCCESS in the same workflow run, and has no
     * trigger of its own (no cron, fixedRate or fixedDelay). A run starts at the workflow's one root task; an
     * upstream that does not succeed blocks the steps after it for that run, recorded as SKIPPED. Cycles, unknown
     * names and self-dependencies fail start-up.
     */
    String[] dependsOn() default {};

    /** Wait before the first fire of a fixedRate or fixedDelay task; default none. */
    String initialDelay() default "";

    /** How long one attempt may run before its thread is interrupted; default 60 s (with a warning at start-up). */
    String timeout() default "";

    /** Whether a fire may start while the previous instance is still running; if not, the fire is SKIPPED. */
    boolean concurrent() default false;

    /** The execution pool ({@code ax.pools.<group>}); default {@code default}. */
    String group() default "";

    /**
     * Which of the group's due instances start first when its pool is saturated: higher first, -1000 to 1000;
     * default 0. An instance that has waited the pool's overtake limit ({@code ax.pools.<group>.overtake-limit}) is
     * no longer overtaken.
     */
    int priority() default 0;

    /**
     * Whether each attempt runs inside one transaction of AX's database that also records its success: what the
     * method writes through the same {@code DataSource} (a {@code JdbcTemplate}, JPA on it) commits with the
     * instance's {@code SUCCESS} or not at all, so a crash, a timeout or a takeover mid-attempt leaves nothing
     * behind and the retry starts clean. Needs a JDBC store and the application's transaction manager on its
     * {@code DataSource}; default false.
     */
    boolean transactional() default false;

    /**
     * At most this many attempts of the task run at once on all nodes together, for a task whose instances may
     * overlap (delayed executions, {@code concurrent = true}); the rest wait, SCHEDULED, and start as permits free.
     * Default 0: no such limit.
     */
    int maxConcurrent() default 0;

    /**
     * A key of which at most one attempt runs at a time across the cluster, shared with every task whose mutex
     * gives the same key: {@code ${key}} stands for the delayed execution's key, {@code ${name}} for the task's
     * parameter {@code name}, e.g. {@code "customer-${key}"}. Not resolved against the environment. Default none.
     */
    String mutex() default "";

    /**
     * At most so many attempts of the task start in any window across the cluster: {@code "<count>/<window>"}, e.g.
     * {@code "100/1m"} (a sliding window on the database's clock; units ms, s, m, h, d). Those above it wait,
     * SCHEDULED; none is dropped. Default none.
     */
    String rate() default "";

    /** What happens to fire times missed while nothing ran (the application was down); default one catch-up. */
    MisfirePolicy misfire() default MisfirePolicy.FIRE_ONCE;

    /** Where its instances live: PERSISTENT (the default) in the store, MEMORY only in this process. */
    Durability durability() default Durability.PERSISTENT;

    /**
     * Static parameters as {@code key=value} entries (placeholders allowed in the value), handed to the method in
     * {@link AxContext#params()}.
     */
    String[] params() default {};

    /**
     * How failed attempts are retried; default the application's default policy ({@code ax.retry.*}, which retries
     * nothing unless configured). A {@code @Retry} with every attribute at its default counts as none set.
     */
    Retry retry() default @Retry;

    /** Retry settings of an {@link AxJob}. */
    @Target({})
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @interface Retry {

        /** Retries after the first attempt; 0 = none. A string so it may be a placeholder. */
        String times() default "0";

        /** How the wait grows between retries. */
        Backoff backoff() default Backoff.EXPONENTIAL;

        /** The wait before the first retry. */
        String base() default "1s";

        /** The longest wait between retries. */
        String max() default "5m";
    }
}
