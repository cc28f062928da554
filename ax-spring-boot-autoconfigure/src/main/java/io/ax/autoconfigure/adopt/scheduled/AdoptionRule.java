package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.AxProperties;
import java.lang.reflect.Method;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.StringUtils;

/**
 * Which {@code @Scheduled} declarations AX runs instead of Spring's scheduler, after {@code ax.adopt.scheduled}.
 * Spring's processor and AX's adoption both ask it, so a declaration runs on exactly one of them.
 *
 * <p>A one-time declaration (only an initial delay) is never adopted: it runs once per start of each node, which
 * has no fire for a cluster to share, so Spring keeps it.
 */
final class AdoptionRule {

    /** ShedLock's annotation, by name: ShedLock need not be on the class path. */
    static final String SCHEDULER_LOCK = "net.javacrumbs.shedlock.spring.annotation.SchedulerLock";

    private final AxProperties.ScheduledAdoption mode;

    AdoptionRule(AxProperties.ScheduledAdoption mode) {
        this.mode = mode;
    }

    AxProperties.ScheduledAdoption mode() {
        return mode;
    }

    /** Whether AX runs this declaration on {@code method}. */
    boolean adopts(Method method, Scheduled scheduled) {
        if (mode == AxProperties.ScheduledAdoption.OFF || oneTime(scheduled)) {
            return false;
        }
        return mode == AxProperties.ScheduledAdoption.ALL || locked(method);
    }

    /** Whether ShedLock's {@code @SchedulerLock} is on the method. */
    static boolean locked(Method method) {
        return MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY).isPresent(SCHEDULER_LOCK);
    }

    /** Spring runs a declaration without cron, fixed delay or fixed rate once, after its initial delay. */
    static boolean oneTime(Scheduled scheduled) {
        return !StringUtils.hasText(scheduled.cron())
                && scheduled.fixedDelay() < 0
                && !StringUtils.hasText(scheduled.fixedDelayString())
                && scheduled.fixedRate() < 0
                && !StringUtils.hasText(scheduled.fixedRateString());
    }
}
