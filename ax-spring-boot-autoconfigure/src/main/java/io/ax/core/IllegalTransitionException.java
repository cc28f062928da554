package io.ax.core;

/** Thrown when a transition is not an arrow of the {@link InstanceState} machine. */
public final class IllegalTransitionException extends AxException {

    private final String instanceId;
    private final InstanceState from;
    private final InstanceState to;

    public IllegalTransitionException(String instanceId, InstanceState from, InstanceState to) {
        super("Illegal transition of instance " + instanceId + ": " + from + " -> " + to + " (allowed from " + from
                + ": " + from.successors() + ")");
        this.instanceId = instanceId;
        this.from = from;
        this.to = to;
    }

    public String instanceId() {
        return instanceId;
    }

    public InstanceState from() {
        return from;
    }

    public InstanceState to() {
        return to;
    }
}
