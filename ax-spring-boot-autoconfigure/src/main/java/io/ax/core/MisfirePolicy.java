package io.ax.core;

/** What a recurring task does about fire times that passed while nothing ran (the process was down or stalled). */
public enum MisfirePolicy {
    /** One catch-up instance for the missed times, then on with the schedule. The default. */
    FIRE_ONCE,
    /** Nothing for the missed times; on with the schedule. */
    SKIP,
    /** One instance per missed time, up to {@code ax.misfire.max-catch-up}, then on with the schedule. */
    FIRE_ALL
}
