/**
 * Who may decide for a row, at which epoch, and how the decision is fenced: the owner of the row's partition (the
 * partitioned ownership of docs/partitioned-ownership.md). Knows only the engine's threads and writes below it; the rooms that decide ask it through {@link
 * io.ax.core.engine.ownership.DecisionTerms}.
 */
package io.ax.core.engine.ownership;
