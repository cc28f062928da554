package io.ax.core;

/** What made an instance; it decides how the instance meets others of its task and whether it carries a key. */
public enum InstanceOrigin {
    /**
     * The task's trigger (cron, interval) for one of its fire times. Unique per (task, fire time); a fire that finds
     * the previous instance of a non-overlapping task still running is skipped.
     */
    SERIES,
    /** A misfire policy, for a fire time missed while no node ran. Unique per (task, fire time); waits, never skips. */
    CATCH_UP,
    /** A request to run the task now ({@link AxScheduler#triggerNow(String)}), by the application or an operator. */
    ON_DEMAND,
    /**
     * A one-shot delayed execution from {@link AxScheduler#schedule(ScheduleRequest)}: may carry a payload and a
     * caller's key; never skipped.
     */
    DELAYED,
    /**
     * A workflow step: created once all its upstream tasks succeeded in a run, keyed by that run ({@link
     * TaskInstance#runKey}), so that each step runs once per run. Never skipped for overlap.
     */
    WORKFLOW;

    /**
     * {@return whether instances of this origin are a trigger's fires (SERIES or CATCH_UP), unique per (task, fire
     * time)}
     */
    public boolean isTriggerFire() {
        return this == SERIES || this == CATCH_UP;
    }
}
