package io.ax.core;

/** Thrown when a transition is not an arrow of the {@link InstanceState} machine. */
public final class IllegalTransitionException extends AxException {

    /** The instance's id. */
    private final String instanceId;
    /** The state the instance was to leave. */
    private final InstanceState from;
    /** The state the instance was to enter. */
    private final InstanceState to;

    /**
     * An exception naming the instance, the refused move and the states {@code from} allows.
     *
     * @param instanceId the instance's id
     * @param from the state the instance was to leave; not null
     * @param to the state the instance was to enter
     */
    public IllegalTransitionException(String instanceId, InstanceState from, InstanceState to) {
        super("Illegal transition of instance " + instanceId + ": " + from + " -> " + to + " (allowed from " + from
                + ": " + from.successors() + ")");
        this.instanceId = instanceId;
        this.from = from;
        this.to = to;
    }

    /** {@return the instance's id} */
    public String instanceId() {
        return instanceId;
    }

    /** {@return the state the instance was to leave} */
    public InstanceState from() {
        return from;
    }

    /** {@return the state the instance was to enter} */
    public InstanceState to() {
        return to;
    }
}
