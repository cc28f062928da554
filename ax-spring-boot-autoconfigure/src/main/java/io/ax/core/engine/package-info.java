/**
 * The engine: {@link io.ax.core.engine.AxEngine}, the facade an application holds, with its builder and the
 * settings and extension points it takes ({@link io.ax.core.engine.PoolSettings}, {@link
 * io.ax.core.engine.RetentionSettings}, {@link io.ax.core.engine.EngineObserver}, {@link
 * io.ax.core.engine.AttemptTracer}, {@link io.ax.core.engine.TraceContextCapture}, {@link
 * io.ax.core.engine.ExecutorRouter}).
 *
 * <p>The engine's roles move into rooms of their own, each below the facade, with dependencies one way (checked by
 * {@code ArchitectureTest}):
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.writes}: the writes to the stores, with their threads; it knows nothing of the
 *       engine above it.
 * </ul>
 *
 * The classes still in this package are the roles not moved yet: planning ({@code FirePlanner}, {@code Prefetcher},
 * {@code Reconciliation}), leading ({@code Leadership}, {@code Takeover}, {@code Recovery}), work ({@code
 * Dispatcher}, {@code Claimer}, {@code AssignmentPoller}, {@code InstanceRunner}, {@code ExecutionPools}), delayed
 * tasks, workflows, runtime definitions and operator actions.
 *
 * <p>A class is given what it uses. These take narrow arguments, and ask the rest of the engine through a small
 * interface of their own where they must: {@code Workflows}, {@code Prefetcher} ({@code Prefetcher.Wheel}), {@code
 * Reconciliation} ({@code Reconciliation.Planner}), {@code DelayedTasks} ({@code DelayedTasks.Engine}), {@code
 * MemoryExecutions}, {@code RuntimeTasks} ({@code RuntimeTasks.Registry}), {@code Takeover}, {@code Recovery}
 * ({@code Recovery.Later}), {@code Operations} ({@code Operations.Engine}), {@code InstanceRunner} ({@code
 * InstanceRunner.Outcomes}, {@code .DeadLetters}), {@code Claimer}, {@code AssignmentPoller}, {@code Dispatcher}
 * ({@code Dispatcher.Series}, which {@code FirePlanner} implements) and {@code FirePlanner} ({@code
 * FirePlanner.Tasks}, {@code .Downstream}). The engine's own threads are {@code EngineThreads}'. Only {@code
 * Leadership} is still handed the facade; a class moves to its room once none of its calls goes back up.
 *
 * <p>The facade's Javadoc lists every thread and the class that owns it.
 */
package io.ax.core.engine;
