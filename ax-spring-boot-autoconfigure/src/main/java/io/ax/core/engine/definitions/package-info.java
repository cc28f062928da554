/**
 * The tasks this node knows. {@link io.ax.core.engine.definitions.TaskRegistry} owns the registered tasks and the
 * paused ones; every other class reads them through its read-only views.
 *
 * <p>Tasks defined at runtime: {@link io.ax.core.engine.definitions.RuntimeTasks} stores a definition with its
 * audited history, applies it on this node at once and on every other node at its next look (on {@code
 * ax-definitions1}), and loads the stored ones at start; {@code TaskDefinitionText} reads and writes a definition's
 * stored form. The engine's tasks it changes through {@link io.ax.core.engine.definitions.RuntimeTasks.Registry},
 * which the facade implements. Beside delayed tasks and workflows, not above them.
 *
 * <p>Internal to the engine: public only so that the facade can use it, not an API.
 */
package io.ax.core.engine.definitions;
