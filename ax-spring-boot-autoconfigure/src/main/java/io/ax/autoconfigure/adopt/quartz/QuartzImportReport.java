package io.ax.autoconfigure.adopt.quartz;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What an import of a Quartz JDBC job store did, or would do in a dry run: per trigger, the AX task it becomes or why
 * it cannot; and the jobs no trigger fires (left in Quartz's store). Immutable.
 *
 * @param applied whether the tasks were created and the triggers taken out of Quartz's hands; false for a dry run,
 *     which wrote nothing
 * @param schedulerName the Quartz scheduler whose store was read
 * @param readAt when the store was read, under Quartz's trigger lock
 * @param triggers one entry per trigger of the scheduler, ordered by group and name
 * @param jobsWithoutTriggers the jobs ({@code group.name}) that no trigger fires: not imported
 */
public record QuartzImportReport(
        boolean applied,
        String schedulerName,
        Instant readAt,
        List<TriggerEntry> triggers,
        List<String> jobsWithoutTriggers) {

    /**
     * Copies the lists.
     *
     * @throws NullPointerException when a component is null
     */
    public QuartzImportReport {
        Objects.requireNonNull(schedulerName, "schedulerName");
        Objects.requireNonNull(readAt, "readAt");
        triggers = List.copyOf(triggers);
        jobsWithoutTriggers = List.copyOf(jobsWithoutTriggers);
    }

    /** {@return how many triggers become (or became) AX tasks} */
    public long imported() {
        return triggers.stream().filter(t -> t.outcome() == Outcome.IMPORTED).count();
    }

    /** {@return how many triggers cannot be imported} */
    public long refused() {
        return triggers.stream().filter(t -> t.outcome() == Outcome.REFUSED).count();
    }

    /** What becomes of one trigger. */
    public enum Outcome {
        /** It becomes an AX task (in a dry run: it would). */
        IMPORTED,
        /** It cannot be imported; Quartz keeps firing it. */
        REFUSED,
        /** An earlier import took it already; nothing changes. */
        ALREADY_IMPORTED
    }

    /**
     * One trigger and the task it becomes.
     *
     * @param trigger the trigger's key, {@code group.name}
     * @param job the key of the job it fires, {@code group.name}; null when the trigger could not be read
     * @param quartzState its state in Quartz's store as read ({@code WAITING}, {@code PAUSED}, ...)
     * @param outcome what becomes of it
     * @param task the AX task's name; null when refused
     * @param schedule the AX task's trigger, described; null when refused
     * @param quartzNextFire the trigger's next fire time in Quartz's store; null when it has none
     * @param axNextFire the AX task's first fire time: Quartz's next fire time when it is still ahead; null when
     *     refused or paused
     * @param paused whether the task is (or will be) paused, as the trigger is in Quartz
     * @param note why it is refused, or what happens to a fire time that passed; null when there is nothing to say
     */
    public record TriggerEntry(
            String trigger,
            String job,
            String quartzState,
            Outcome outcome,
            String task,
            String schedule,
            Instant quartzNextFire,
            Instant axNextFire,
            boolean paused,
            String note) {

        /**
         * Checks the components.
         *
         * @throws NullPointerException when {@code trigger} or {@code outcome} is null
         */
        public TriggerEntry {
            Objects.requireNonNull(trigger, "trigger");
            Objects.requireNonNull(outcome, "outcome");
        }
    }
}
