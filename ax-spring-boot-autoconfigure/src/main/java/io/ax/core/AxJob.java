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
 * <p>Set at most one trigger: {@link #cron()}, {@link #fixedRate()} or {@link #fixedDelay()}, or instead {@link
 * #dependsOn()}. With none the method is an on-demand handler, run only when triggered through the API. Durations
 * accept {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d} and ISO-8601 ({@code PT5S}); every string
 * attribute but {@link #mutex()} may use {@code ${...}} placeholders resolved from the environment. A definition that
 * breaks a rule fails start-up with a message naming the method, the attribute and the reason.
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

    /** {@return the task's name, unique in the application; default {@code beanName.methodName}} */
    String name() default "";

    /** {@return a Quartz cron expression (seconds first, optional year); default none} */
    String cron() default "";

    /**
     * {@return the time zone of {@link #cron()}, such as {@code Europe/Paris}; default {@code ax.default-zone} (UTC
     * unless configured)} Set only with a cron expression.
     */
    String zone() default "";

    /** {@return the period between fire times, counted from the previous fire time; default none} */
    String fixedRate() default "";

    /** {@return the period between fires, counted from the end of the previous run; default none} */
    String fixedDelay() default "";

    /**
     * {@return the names of the tasks this one waits for; default none} It runs once all of them have ended SUCCESS in
     * the same workflow run, and has no trigger of its own (no cron, fixedRate or fixedDelay). A run starts at the
     * workflow's one root task; an upstream that does not succeed blocks the steps after it for that run, recorded as
     * SKIPPED. Cycles, unknown names and self-dependencies fail start-up.
     */
    String[] dependsOn() default {};

    /** {@return the wait before the first fire of a fixedRate or fixedDelay task; zero or positive, default none} */
    String initialDelay() default "";

    /**
     * {@return how long one attempt may run before its thread is interrupted; default 60 s (with a warning at
     * start-up)}
     */
    String timeout() default "";

    /**
     * {@return whether a fire may start while the previous instance is still running; default false} If not, the fire
     * is SKIPPED.
     */
    boolean concurrent() default false;

    /**
     * {@return the execution pool ({@code ax.pools.<group>}): 1 to 64 letters, digits, underscores and hyphens;
     * default {@code default}}
     */
    String group() default "";

    /**
     * {@return which of the group's due instances start first when its pool is saturated: higher first, -1000 to 1000;
     * default 0} An instance that has waited the pool's overtake limit ({@code ax.pools.<group>.overtake-limit}) is no
     * longer overtaken.
     */
    int priority() default 0;

    /**
     * {@return whether each attempt runs inside one transaction of AX's database that also records its success} What
     * the method writes through the same {@code DataSource} (a {@code JdbcTemplate}, JPA on it) commits with the
     * instance's {@code SUCCESS} or not at all, so a crash, a timeout or a takeover mid-attempt leaves nothing behind
     * and the retry starts clean. Needs a JDBC store and the application's transaction manager on its {@code
     * DataSource}; default false.
     */
    boolean transactional() default false;

    /**
     * {@return at most this many attempts of the task run at once on all nodes together; default 0, no such limit}
     * Meant for a task whose instances may overlap (delayed executions, {@code concurrent = true}); the rest wait,
     * SCHEDULED, and start as permits free.
     */
    int maxConcurrent() default 0;

    /**
     * {@return a key of which at most one attempt runs at a time across the cluster; default none} It is shared with
     * every task whose mutex gives the same key: {@code ${key}} stands for the delayed execution's key, {@code
     * ${keyPrefix}} for that key up to its first {@code :}, {@code ${name}} for the task's parameter {@code name}, e.g.
     * {@code "customer-${key}"}. Not resolved against the environment. See {@link TaskLimits#mutex()}.
     */
    String mutex() default "";

    /**
     * {@return at most so many attempts of the task start in any window across the cluster, as {@code
     * "<count>/<window>"}; default none} For example {@code "100/1m"}: a sliding window on the database's clock, units
     * ms, s, m, h, d (see {@link Rate}). Those above it wait, SCHEDULED; none is dropped.
     */
    String rate() default "";

    /**
     * {@return what happens to fire times missed while nothing ran (the application was down); default one catch-up,
     * {@link MisfirePolicy#FIRE_ONCE}}
     */
    MisfirePolicy misfire() default MisfirePolicy.FIRE_ONCE;

    /** {@return where its instances live: PERSISTENT (the default) in the store, MEMORY only in this process} */
    Durability durability() default Durability.PERSISTENT;

    /**
     * {@return static parameters as {@code key=value} entries (placeholders allowed in the value); default none} They
     * reach the method in {@link AxContext#params()}. A key set twice fails start-up.
     */
    String[] params() default {};

    /**
     * {@return how failed attempts are retried; default the application's default policy ({@code ax.retry.*}, which
     * retries nothing unless configured)} A {@code @Retry} with every attribute at its default counts as none set.
     */
    Retry retry() default @Retry;

    /** Retry settings of an {@link AxJob}. */
    @Target({})
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @interface Retry {

        /**
         * {@return the retries after the first attempt; 0, the default, for none} A string, so it may be a placeholder.
         */
        String times() default "0";

        /** {@return how the wait grows between retries; default {@link Backoff#EXPONENTIAL}} */
        Backoff backoff() default Backoff.EXPONENTIAL;

        /** {@return the wait before the first retry; positive, default 1 s} */
        String base() default "1s";

        /** {@return the longest wait between retries; not shorter than {@link #base()}, default 5 min} */
        String max() default "5m";
    }
}
