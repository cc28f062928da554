/**
 * What this node does because it owns partitions, the top room of the engine: it sets the planning, the scheduling
 * and the work below it going for the partitions it gains, and stops them for the partitions it loses.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.ownership.Leadership}: the one listener of the membership and of the partitions'
 *       moves; owns {@code ax-leader1}, where a gain's takeover, the sweeps, the reconciliation and the adoption of
 *       dead nodes' work run; answers the dispatch's questions about instances held elsewhere ({@link
 *       io.ax.core.engine.work.Dispatcher.Holders}) and plans fixed-delay series after their ends ({@link
 *       io.ax.core.engine.planning.FirePlanner.FixedDelays});
 *   <li>{@code Takeover}: what a gained partition needs before its first decision; {@code OrphanAdoption}: the
 *       work dead nodes left; {@code RemoteHolders}: instances of this node's partitions that live nodes hold;
 *   <li>{@link io.ax.core.engine.ownership.Recovery}: this node's own unfinished work at start; {@link
 *       io.ax.core.engine.ownership.Handback}: what it gives back (at a stop what it claimed and did not start, at
 *       its start what an earlier version assigned to its last run);
 *   <li>{@link io.ax.core.engine.ownership.Retention} ({@code ax-retention-1}): the deletion of old rows, by one node
 *       at a time (the cluster lease).
 * </ul>
 *
 * The partition leases and the ring themselves are {@link io.ax.core.cluster}'s; this room is what the engine does
 * with them. Internal to the engine: public only so that the facade can use it, not an API.
 */
package io.ax.core.engine.ownership;
