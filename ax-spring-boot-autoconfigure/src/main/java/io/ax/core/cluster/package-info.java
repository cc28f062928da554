/**
 * The cluster: the nodes and their heartbeats ({@link io.ax.core.cluster.NodeRegistry}), the one leader lease with
 * its epoch ({@link io.ax.core.cluster.LeaderLease}), the thread that keeps both ({@link
 * io.ax.core.cluster.Membership}, threads {@code ax-cluster} and {@code ax-cluster-watch}), the ring ({@link
 * io.ax.core.cluster.HashRing}) and the fencing of writes by epoch. Every time compared here is the store's.
 *
 * <h2>Partitions</h2>
 *
 * <p>The pieces of partitioned ownership, each with its tests, on which the engine's owner role
 * ({@code io.ax.core.engine.ownership}) stands (see {@code docs/design.md}, "The partition protocol"). Every node runs
 * the rounds: {@link io.ax.core.cluster.Membership} calls {@link io.ax.core.cluster.PartitionOwnership} after each
 * heartbeat, and {@link io.ax.core.cluster.PartitionTerms} holds what the node owns, at which epochs, until its own
 * deadline; the engine decides and runs the rows of those partitions.
 *
 * <ul>
 *   <li>{@link io.ax.core.cluster.PartitionLeases} (in the JDBC store, and {@link
 *       io.ax.core.cluster.LocalPartitionLeases} in memory): a fixed count of partitions, recorded by the first node;
 *       each owned by one process under an epoch that grows with every move. Ownership lasts while the owner's node
 *       row heartbeats within the lease, so a node's one heartbeat renews all its partitions and a partition's row is
 *       written only when it moves.
 *   <li>{@link io.ax.core.cluster.Partitions}: the partition of a row, a pure function of it (its task, its workflow
 *       run or its key, hashed modulo the count), which the stores keep in each instance's row and read by.
 *   <li>{@link io.ax.core.cluster.SettledNodes} and {@link io.ax.core.cluster.PartitionPlan}: which node should own
 *       each partition, computed alike on every node from the same rows (no node publishes a map), sticky and
 *       balanced, with hysteresis both ways so that a flapping node moves its partitions once, not at every flap.
 *   <li>{@link io.ax.core.cluster.PartitionOwnership}: one node's round per heartbeat over those (give up what moves
 *       away, take what is free and planned here, rescue a stranded partition), telling a listener what it gained
 *       and lost, the loss before the partition is given up, and logging each round that moved something once,
 *       with why.
 *   <li>The fence of an owner's writes (in the JDBC store): a condition that reads the partition's row with a shared
 *       lock, so a move waits for the fenced writes in flight and every later one reads the new epoch. The row that
 *       serializes a deposed owner against the next one is thus always the partition's row; a frozen owner inside an
 *       open transaction holds its lock until the database ends its session, which the engine must bound.
 * </ul>
 */
package io.ax.core.cluster;
