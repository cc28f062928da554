/**
 * The floor of the engine: its own threads and what they hand one another. It knows no other room.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.threads.EngineThreads} owns {@code ax-wheel} (the timer the builder's factory
 *       makes), {@code ax-dispatch-1} and {@code ax-outcomes-1}, and is the only way onto them;
 *   <li>{@link io.ax.core.engine.threads.Due} is an instance due to run, as it travels from the wheel to a pool;
 *       {@link io.ax.core.engine.threads.MemoryTask} a MEMORY execution waiting in the wheel;
 *   <li>{@link io.ax.core.engine.threads.NamedThreadFactory} and {@link io.ax.core.engine.threads.OneThread} name
 *       and build the single threads the other rooms own, {@link io.ax.core.engine.threads.VirtualThreads} the
 *       virtual workers of a pool that asks for them; {@link io.ax.core.engine.threads.EngineLog} is the one log
 *       every room writes to.
 * </ul>
 *
 * Internal to the engine: public only so that the rooms above can use it, not an API.
 */
package io.ax.core.engine.threads;
