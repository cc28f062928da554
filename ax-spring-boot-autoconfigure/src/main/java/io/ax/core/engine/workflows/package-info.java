/**
 * Workflows: {@link io.ax.core.engine.workflows.Workflows} keeps the graph of dependency triggers, moves a run on
 * when a step ends (the next steps' instances, or the run blocked) and answers a step's questions about its run
 * (the upstream results in its context). Called on its callers' threads (the leader's and the attempts'); it owns
 * no thread. Beside delayed tasks and definitions, not above them.
 *
 * <p>Internal to the engine: public only so that the rooms above can use it, not an API; the graph and runs it
 * shows are {@link io.ax.core.engine.WorkflowGraph} and {@link io.ax.core.engine.WorkflowRun}.
 */
package io.ax.core.engine.workflows;
