/**
 * The terms of a decision: at which epoch this node may decide for a row, and how a decision taken at that epoch is
 * fenced (by the epoch of the row's partition, which its owner holds; see docs/design.md, "Epochs that fence").
 * Every room that decides asks it through {@link io.ax.core.engine.terms.DecisionTerms}, or is handed one round's
 * {@link io.ax.core.engine.terms.Term}. It knows only the engine's threads and writes below it.
 *
 * <p>Internal to the engine: public only so that the rooms above can use it, not an API.
 */
package io.ax.core.engine.terms;
