package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.StringUtils;

/**
 * ShedLock's annotations read as ShedLock reads them; loaded only when ShedLock is on the class path. A run holds
 * its lock as ShedLock's code sees it: by default a lock that AX's own exclusion stands for, taken from no store;
 * with {@code ax.adopt.take-shedlock-locks}, the lock of the application's lock provider, so that replicas without
 * AX and replicas with it exclude each other during a rolling switch.
 */
final class ShedLockLocks implements SchedulerLocks {

    private static final Logger LOG = LoggerFactory.getLogger(ShedLockLocks.class);

    /** The lock an AX run holds: AX's own exclusion stands for it, so it takes nothing and frees nothing. */
    private static final SimpleLock HELD_BY_AX = new SimpleLock() {
        @Override
        public void unlock() {}

        @Override
        public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            return Optional.of(this);
        }
    };

    private static final LockProvider AX = configuration -> Optional.of(HELD_BY_AX);

    private final UnaryOperator<String> placeholders;
    private final LockProvider provider;
    private final String defaultAtMostFor;
    private final String defaultAtLeastFor;

    /**
     * @param placeholders resolves {@code ${...}} as the application's embedded values
     * @param beans where {@code @EnableSchedulerLock} (and its defaults) may be declared
     * @param shedLocks the application's lock provider, whose locks a run also takes; null for none (AX's exclusion
     *     stands for the lock)
     */
    ShedLockLocks(UnaryOperator<String> placeholders, ListableBeanFactory beans, LockProvider shedLocks) {
        this.placeholders = placeholders;
        this.provider = shedLocks == null ? AX : shedLocks;
        EnableSchedulerLock enabled = null;
        for (String name : beans.getBeanNamesForAnnotation(EnableSchedulerLock.class)) {
            enabled = beans.findAnnotationOnBean(name, EnableSchedulerLock.class);
            if (enabled != null) {
                break;
            }
        }
        this.defaultAtMostFor = enabled == null ? "" : enabled.defaultLockAtMostFor();
        this.defaultAtLeastFor = enabled == null ? "" : enabled.defaultLockAtLeastFor();
    }

    @Override
    public Optional<Lock> lockOf(Method method, String origin) {
        MergedAnnotation<SchedulerLock> lock =
                MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY).get(SchedulerLock.class);
        if (!lock.isPresent()) {
            return Optional.empty();
        }
        String name = placeholders.apply(lock.getString("name"));
        if (!StringUtils.hasText(name)) {
            throw InvalidJobDefinitionException.ofAdopted(
                    origin, "@SchedulerLock.name", "a lock needs a name, and AX names the adopted task after it");
        }
        Duration atMostFor = duration(lock.getString("lockAtMostFor"), defaultAtMostFor, origin, "lockAtMostFor");
        Duration atLeastFor = duration(lock.getString("lockAtLeastFor"), defaultAtLeastFor, origin, "lockAtLeastFor");
        if (!atMostFor.isZero() && atLeastFor.compareTo(atMostFor) > 0) {
            throw InvalidJobDefinitionException.ofAdopted(
                    origin,
                    "@SchedulerLock.lockAtLeastFor",
                    "lockAtLeastFor (" + atLeastFor + ") is longer than lockAtMostFor (" + atMostFor + ")");
        }
        return Optional.of(new Lock(name.trim(), atMostFor, atLeastFor));
    }

    /** The method's value, else the default; ShedLock's formats: ISO-8601, {@code 30s}, or milliseconds. */
    private Duration duration(String value, String fallback, String origin, String attribute) {
        String text = placeholders.apply(StringUtils.hasText(value) ? value : fallback);
        if (!StringUtils.hasText(text)) {
            return Duration.ZERO;
        }
        try {
            Duration duration = DurationFormatterUtils.detectAndParse(text.trim(), DurationFormat.Unit.MILLIS);
            if (duration.isNegative()) {
                throw new IllegalArgumentException("it is negative");
            }
            return duration;
        } catch (RuntimeException e) {
            throw InvalidJobDefinitionException.ofAdopted(
                    origin, "@SchedulerLock." + attribute, "'" + text + "' is not a duration: " + e.getMessage());
        }
    }

    @Override
    public void runHolding(Lock lock, Invocation invocation) throws Exception {
        // ShedLock wants the most at least the least; a lock without a bound is as long as its least
        Duration atMostFor = lock.atMostFor().isZero() ? lock.atLeastFor() : lock.atMostFor();
        LockConfiguration configuration =
                new LockConfiguration(ClockProvider.now(), lock.name(), atMostFor, lock.atLeastFor());
        try {
            LockingTaskExecutor.TaskResult<Void> result = new DefaultLockingTaskExecutor(provider)
                    .executeWithLock(
                            () -> {
                                invocation.run();
                                return null;
                            },
                            configuration);
            if (!result.wasExecuted()) {
                LOG.info(
                        "ShedLock's lock '{}' is held elsewhere (by a replica without AX?): this turn passes, as"
                                + " with ShedLock",
                        lock.name());
            }
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
