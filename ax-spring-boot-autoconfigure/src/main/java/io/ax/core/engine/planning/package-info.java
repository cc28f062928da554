/**
 * The trigger decisions: when a task fires next, what a missed fire becomes, and what fell due together.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.planning.FirePlanner}: the first and next fire of every series, misfires and their
 *       policies, catch-ups; writes the fires it plans (through {@code ax-fire-writer}) and puts them into the
 *       wheel, and, on {@code ax-dispatch-1}, gathers what fell due together for the dispatch;
 *   <li>{@link io.ax.core.engine.planning.Reconciliation}: the periodic check that every series this node decides
 *       has its next fire, run in the owner's rounds;
 *   <li>{@link io.ax.core.engine.planning.ClockGuard}: the clock watch ({@code ax-clock}) that holds trigger
 *       decisions back while the wall clock jumps; {@code MisfireLog} sums misfires into one line a task a while,
 *       {@code TriggerGroups} keeps the fires of one trigger and time in one wheel entry.
 * </ul>
 *
 * It stands on the work (the dispatch it hands due fires to asks it back through {@link
 * io.ax.core.engine.work.Dispatcher.Series}) and the rooms below that; what it needs of the owner above (the next
 * fire of a fixed-delay series, planned by whoever decides it) it asks through {@link
 * io.ax.core.engine.planning.FirePlanner.FixedDelays}. Internal to the engine: public only so that the facade and
 * the owner can use it, not an API.
 */
package io.ax.core.engine.planning;
