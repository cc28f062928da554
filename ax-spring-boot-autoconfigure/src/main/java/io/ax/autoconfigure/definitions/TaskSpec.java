package io.ax.autoconfigure.definitions;

import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.MisfirePolicy;
import java.util.List;
import java.util.Map;

/**
 * The text of one task definition, from an {@code @AxJob} or an {@code ax.tasks.<name>} entry, with placeholders
 * resolved; an empty string means not set. {@link TaskDefinitionReader} turns it into a task.
 *
 * @param dependsOn the upstream tasks of a workflow step; empty for none
 * @param mutex the mutex template as written (its {@code ${...}} are the instance's, not resolved); empty for none
 * @param rate the rate as written ({@code 100/1m}); empty for none
 * @param retry the retry settings, or null when the definition sets none (the default policy applies)
 */
record TaskSpec(
        String name,
        String type,
        String target,
        Map<String, String> params,
        String cron,
        String zone,
        String fixedRate,
        String fixedDelay,
        String initialDelay,
        List<String> dependsOn,
        String timeout,
        boolean concurrent,
        String group,
        Durability durability,
        MisfirePolicy misfire,
        int priority,
        boolean transactional,
        int maxConcurrent,
        String mutex,
        String rate,
        Retry retry) {

    /** Retry settings as text: times, back-off, base and max wait. */
    record Retry(String times, Backoff backoff, String base, String max) {}

    /**
     * Where a definition comes from: it names attributes the way the user wrote them ({@code fixedRate} in an
     * annotation, {@code trigger.fixed-rate} in properties) and makes the exception for a bad one.
     */
    interface Source {

        /** The user's name of an attribute given by its annotation name. */
        String attribute(String annotationName);

        /** The exception for a bad attribute (given by its annotation name). */
        InvalidJobDefinitionException invalid(String annotationName, String reason);
    }
}
