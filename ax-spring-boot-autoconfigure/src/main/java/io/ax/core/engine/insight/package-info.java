/**
 * What the engine tells about itself, and to whom: it reads and counts, and decides nothing. It knows only the
 * threads' room below it.
 *
 * <ul>
 *   <li>{@link io.ax.core.engine.insight.Insight}: the {@link io.ax.core.engine.EngineObserver}s (metrics) and the
 *       backlog of due work handed to a pool but not started; called on its callers' threads;
 *   <li>{@link io.ax.core.engine.insight.ActivityRollup}: this node's per-minute counts for the cluster's charts,
 *       written on {@code ax-activity-1};
 *   <li>{@link io.ax.core.engine.insight.StoreFigures}: the store's figures health shows (the dead letters), read
 *       in the background on {@code ax-figures1}, so that health never waits for the store;
 *   <li>{@link io.ax.core.engine.insight.Listeners}: the application's listeners (dead letters, clock jumps), called
 *       on {@code ax-events-1}, so that a slow listener never holds the engine.
 * </ul>
 *
 * Internal to the engine: public only so that the rooms above can use it, not an API.
 */
package io.ax.core.engine.insight;
