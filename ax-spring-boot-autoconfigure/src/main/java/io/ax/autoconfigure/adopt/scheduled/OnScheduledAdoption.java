package io.ax.autoconfigure.adopt.scheduled;

import io.ax.autoconfigure.AxProperties;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code ax.adopt.scheduled} is {@code locked} or {@code all}. */
final class OnScheduledAdoption extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        AxProperties.ScheduledAdoption mode = Binder.get(context.getEnvironment())
                .bind("ax.adopt.scheduled", AxProperties.ScheduledAdoption.class)
                .orElse(AxProperties.ScheduledAdoption.OFF);
        return mode == AxProperties.ScheduledAdoption.OFF
                ? ConditionOutcome.noMatch("ax.adopt.scheduled is off")
                : ConditionOutcome.match("ax.adopt.scheduled is " + mode.name().toLowerCase(java.util.Locale.ROOT));
    }
}
