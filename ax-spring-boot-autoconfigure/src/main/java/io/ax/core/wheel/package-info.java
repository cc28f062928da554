/**
 * The hierarchical timing wheel and the tick loop around it.
 *
 * <p>{@link io.ax.core.wheel.WheelTimer} is the public entry point: O(1) schedule and cancel from any thread, one
 * named tick thread that parks until the next deadline and hands due payloads to a non-blocking dispatcher. The
 * wheel itself ({@code TimingWheel}) is a package-private, single-owner data structure that never reads a clock.
 *
 * <p>This package depends on the JDK only.
 */
package io.ax.core.wheel;
