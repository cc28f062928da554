/**
 * The workload of the fault runner ({@code ax-faults}), on only under the profile {@code faults}: cron, fixed-delay,
 * slow non-overlapping, failing and flaky tasks, a workflow, delayed tasks scheduled over HTTP (some limited across the
 * cluster: {@code maxConcurrent}, a mutex, a pool's {@code cluster-limit}, a rate), a recorder of every attempt this
 * node starts, written on the database's clock over a connection that bypasses the node's fault proxy, and a record of
 * the limits the node applies. The runner's checker judges AX's promises from what it finds in the database afterwards.
 */
package io.ax.sample.faults;
