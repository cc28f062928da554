/**
 * Delayed tasks: {@code AxScheduler.schedule} and its relatives, checked, stored and brought into the wheel when
 * they come near. Beside workflows and definitions, not above them: none of the three calls another.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.scheduling.DelayedTasks}: schedule, cancel and reschedule, on the caller's thread,
 *       each request checked by {@code ScheduleRequests} (inside the {@link io.ax.core.engine.scheduling.Horizon})
 *       and traced by {@code CallerTrace};
 *   <li>{@link io.ax.core.engine.scheduling.MemoryExecutions}: MEMORY executions, which wait in the wheel and enter
 *       the in-memory store only when due;
 *   <li>{@link io.ax.core.engine.scheduling.Prefetcher}: the prefetch window's loads of stored due instances into
 *       the wheel, on {@code ax-prefetch1}.
 * </ul>
 *
 * What it needs of the engine above (whether this node decides, the wheel's queue) it asks through {@link
 * io.ax.core.engine.scheduling.DelayedTasks.Engine} and {@link io.ax.core.engine.scheduling.Prefetcher.Wheel}.
 * Internal to the engine: public only so that the facade can use it, not an API.
 */
package io.ax.core.engine.scheduling;
