/**
 * Who may decide for a row, at which epoch, and how the decision is fenced: the leader for every row (today's
 * cluster), or the owner of the row's partition (the partitioned ownership of docs/partitioned-ownership.md, built in
 * pieces). Knows only the engine's threads and writes below it; the rooms that decide ask it through {@link
 * io.ax.core.engine.ownership.DecisionTerms}.
 */
package io.ax.core.engine.ownership;
