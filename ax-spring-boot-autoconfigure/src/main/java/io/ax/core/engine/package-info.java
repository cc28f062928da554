/**
 * The engine: {@link io.ax.core.engine.AxEngine}, the facade an application holds, with its builder and the
 * settings and extension points it takes ({@link io.ax.core.engine.PoolSettings}, {@link
 * io.ax.core.engine.RetentionSettings}, {@link io.ax.core.engine.EngineObserver}, {@link
 * io.ax.core.engine.AttemptTracer}, {@link io.ax.core.engine.TraceContextCapture}, {@link
 * io.ax.core.engine.ExecutorRouter}).
 *
 * <p>The engine's roles live in rooms of their own, each below the facade, with dependencies one way, each room
 * knowing only the rooms listed before it (checked by {@code ArchitectureTest}):
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.threads}: the engine's own threads and what they hand one another (the floor);
 *   <li>{@link io.ax.core.engine.writes}: the writes to the stores, with their threads;
 *   <li>{@link io.ax.core.engine.insight}: observers, the activity rollup, the store's figures, the application's
 *       listeners;
 *   <li>{@link io.ax.core.engine.terms}: at which epoch this node decides for a row and how the decision is fenced;
 *   <li>{@link io.ax.core.engine.scheduling}, {@link io.ax.core.engine.workflows}, {@link
 *       io.ax.core.engine.definitions}: delayed tasks and their prefetch, workflows, runtime definitions, side by
 *       side;
 *   <li>{@link io.ax.core.engine.work}: the dispatch of what fell due, claims, pools, attempts and their outcomes;
 *   <li>{@link io.ax.core.engine.planning}: the trigger decisions (fire times, misfires, the clock watch);
 *   <li>{@link io.ax.core.engine.ownership}: what this node does because it owns partitions (takeover, adoption,
 *       recovery, hand-back, retention).
 * </ul>
 *
 * What stays in this package is the facade and what only it uses: {@code EngineParts} builds and wires the parts,
 * {@code EngineLifecycle} starts and stops them, {@code TaskChanges}, {@code TaskActions} and {@code Operations} carry
 * out the facade's task and operator calls; beside them the public settings and extension points, which reach no
 * room, so that every room may use them.
 *
 * <p>A class is given what it uses, never the facade ({@code ArchitectureTest} checks it), and asks the rest of the
 * engine through a small interface owned by its own room where it must call up or across: {@code Prefetcher.Wheel},
 * {@code Reconciliation.Planner}, {@code DelayedTasks.Engine}, {@code RuntimeTasks.Registry}, {@code Recovery.Later},
 * {@code Operations.Engine}, {@code InstanceRunner.Outcomes} and {@code .DeadLetters}, {@code Dispatcher.Series}
 * (which {@code FirePlanner} implements) and {@code Dispatcher.Holders} (which {@code Leadership} implements), {@code
 * FirePlanner.Tasks}, {@code .Downstream} and {@code .FixedDelays}. {@code Leadership} is built before the parts that
 * carry out its decisions (they ask it for the epoch): they are attached to it once, before the engine starts. The
 * engine's own threads (wheel, dispatch, outcomes) are {@code EngineThreads}'.
 *
 * <p>The facade's Javadoc lists every thread and the class that owns it.
 */
package io.ax.core.engine;
