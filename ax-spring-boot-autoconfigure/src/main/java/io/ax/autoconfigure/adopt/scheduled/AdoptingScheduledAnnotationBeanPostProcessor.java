package io.ax.autoconfigure.adopt.scheduled;

import java.lang.reflect.Method;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.ScheduledAnnotationBeanPostProcessor;

/**
 * Spring's {@code @Scheduled} processor, minus the declarations AX adopts: those no longer run on every node's
 * scheduler. Every other declaration is Spring's, unchanged.
 */
final class AdoptingScheduledAnnotationBeanPostProcessor extends ScheduledAnnotationBeanPostProcessor {

    private final AdoptionRule rule;

    AdoptingScheduledAnnotationBeanPostProcessor(AdoptionRule rule) {
        this.rule = rule;
    }

    AdoptionRule rule() {
        return rule;
    }

    @Override
    protected void processScheduled(Scheduled scheduled, Method method, Object bean) {
        if (!rule.adopts(method, scheduled)) {
            super.processScheduled(scheduled, method, bean);
        }
    }
}
