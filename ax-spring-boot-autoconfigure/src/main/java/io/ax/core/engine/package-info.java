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
 *   <li>{@link io.ax.core.engine.threads}: the engine's own threads and what they hand one another (the floor);
 *   <li>{@link io.ax.core.engine.writes}: the writes to the stores, with their threads; it knows nothing of the
 *       engine above it;
 *   <li>{@link io.ax.core.engine.insight}: observers, the activity rollup, the store's figures, the application's
 *       listeners;
 *   <li>{@link io.ax.core.engine.ownership}: at which epoch this node decides for a row and how the decision is
 *       fenced (by the row's partition's epoch);
 *   <li>{@link io.ax.core.engine.scheduling}, {@link io.ax.core.engine.workflows}, {@link
 *       io.ax.core.engine.definitions}: delayed tasks and their prefetch, workflows, runtime definitions, side by
 *       side;
 *   <li>{@link io.ax.core.engine.work}: claims, pools, attempts and their outcomes (above workflows, which a step's
 *       context reads).
 * </ul>
 *
 * The facade's public settings and extension points reach no room, so every room may use them. The classes still
 * in this package are the roles not moved yet, because the partitioned ownership in docs/partitioned-ownership.md
 * rewrites them: planning ({@code FirePlanner}, {@code Reconciliation}, {@code ClockGuard}, {@code MisfireLog},
 * {@code TriggerGroups}), owning partitions ({@code Leadership}, {@code Takeover}, {@code RemoteHolders}, {@code
 * OrphanAdoption}, {@code Recovery}, {@code Retention}), dispatch ({@code Dispatcher}, {@code AssignmentPoller}) and
 * operator actions ({@code Operations}).
 *
 * <p>A class is given what it uses, never the facade ({@code ArchitectureTest} checks it), and asks the rest of the
 * engine through a small interface of its own where it must call up or across: {@code Prefetcher.Wheel}, {@code
 * Reconciliation.Planner}, {@code DelayedTasks.Engine}, {@code RuntimeTasks.Registry}, {@code Recovery.Later},
 * {@code Operations.Engine}, {@code InstanceRunner.Outcomes} and {@code .DeadLetters}, {@code Dispatcher.Series}
 * (which {@code FirePlanner} implements), {@code FirePlanner.Tasks} and {@code .Downstream}. {@code Leadership} is
 * built before the parts that carry out its decisions (they ask it for the epoch): they are attached to it once,
 * before the engine starts. The engine's own threads (wheel, dispatch, outcomes) are {@code EngineThreads}'.
 *
 * <p>The facade's Javadoc lists every thread and the class that owns it.
 */
package io.ax.core.engine;
