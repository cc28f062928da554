/**
 * The workload of the fault runner ({@code ax-faults}), on only under the profile {@code faults}: cron, fixed-delay,
 * slow non-overlapping, failing and flaky tasks, a workflow and delayed tasks scheduled over HTTP, and a recorder of
 * every attempt this node starts, written on the database's clock over a connection that bypasses the node's fault
 * proxy. The runner's checker judges AX's promises from what it finds in the database afterwards.
 */
package io.ax.sample.faults;
