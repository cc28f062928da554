/**
 * AX's public API. Mark a bean method as a task with {@link io.ax.core.AxJob}; the method reads its attempt's {@link
 * io.ax.core.AxContext} and may return an {@link io.ax.core.AxResult}. A task's definition is an {@link
 * io.ax.core.AxTask}. Schedule one-shot executions, run tasks now, pause them or register tasks at runtime through
 * {@link io.ax.core.AxScheduler}. Run other kinds of work with an {@link io.ax.core.AxExecutor}.
 *
 * <p>{@link io.ax.core.TaskInstance} is one execution of a task, moving through the states of {@link
 * io.ax.core.InstanceState}, each change recorded as an {@link io.ax.core.AuditEntry}; an instance whose retries ran
 * out leaves a {@link io.ax.core.DeadLetter}. A handler that must have an effect once guards it with {@link
 * io.ax.core.AxIdempotency} or {@link io.ax.core.AxContext#fencingToken()}. AX's own exceptions extend {@link
 * io.ax.core.AxException}; the values of this package refuse bad arguments with {@link IllegalArgumentException} or
 * {@link NullPointerException}.
 *
 * <p>The subpackages hold the engine, its stores, triggers, clocks and cluster protocol.
 */
package io.ax.core;
