/**
 * The work: an attempt from its claim to its outcome. It runs what the rooms above decide, and records what happened
 * through the writes.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.work.Dispatcher}: on {@code ax-dispatch-1}, what becomes of each instance that fell
 *       due (claimed, skipped, cancelled while paused, held back behind a non-overlapping task's instance in flight),
 *       the claims of one group handed to the writer together; what it asks of the rooms above it asks through
 *       {@link io.ax.core.engine.work.Dispatcher.Series} (the planner) and {@link
 *       io.ax.core.engine.work.Dispatcher.Holders} (the owner);
 *   <li>{@link io.ax.core.engine.work.Claimer}: the claim of due instances for this node (the start written, or
 *       confirmed, before a handler runs) and their hand-off to a pool, on its callers' threads;
 *   <li>{@link io.ax.core.engine.work.ExecutionPools}: one bounded pool per task group, threads {@code
 *       ax-<group>-<n>}, where the attempts run;
 *   <li>{@link io.ax.core.engine.work.InstanceRunner}: one attempt's whole life on the thread that runs it (start,
 *       timeout, success, failure, retry, death with its dead letter), each outcome written conditionally; what
 *       follows an end elsewhere in the engine it asks through {@link
 *       io.ax.core.engine.work.InstanceRunner.Outcomes} and {@link io.ax.core.engine.work.InstanceRunner.DeadLetters};
 *   <li>{@link io.ax.core.engine.work.Execution}: one attempt as the pools and timeouts see it;
 *       {@code RunContext} the {@link io.ax.core.AxContext} its handler gets; {@link
 *       io.ax.core.engine.work.RunParams} the parameters of a run on demand.
 * </ul>
 *
 * It knows the threads, the writes, insight, the terms of a decision and workflows (a step's context reads its run),
 * none of the rooms that plan or own. Internal to the engine: public only so that the facade and the rooms above
 * can use it, not an API.
 */
package io.ax.core.engine.work;
