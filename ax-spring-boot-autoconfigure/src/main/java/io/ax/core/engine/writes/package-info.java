/**
 * The engine's writes to its stores, below every other room of the engine: it knows the store SPI and the state
 * machine, and nothing of the engine that uses it.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.writes.StateWriter}: a queue and the one thread that drains it, applying state
 *       changes and new fires with as few store calls as it can, in the order they were handed in, retrying through
 *       an outage, settling a write whose connection broke against the row. The engine runs three of them, each
 *       with a connection of its own: {@code ax-writer} (every other state change: assignments, starts, failures, retries), {@code ax-fire-writer}
 *       (new fires planned ahead) and {@code ax-end-writer} (successful ends); the last two give way to the first.
 *   <li>{@link io.ax.core.engine.writes.ChangeStamps}: the unique, whole-microsecond times the changes carry, by which
 *       a write in doubt is told from another change of the same row.
 *   <li>{@link io.ax.core.engine.writes.StoreRouter}: MEMORY instances in this process, everything else in the
 *       configured store, told apart by {@link io.ax.core.engine.writes.InstanceIds}.
 * </ul>
 *
 * Threads: the writers' own, one each; every other class here is called on its caller's thread and is thread-safe.
 */
package io.ax.core.engine.writes;
