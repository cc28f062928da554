package io.ax.core;

/** Thrown when an operation names an instance the store does not hold. */
public final class UnknownInstanceException extends AxException {

    private final String instanceId;

    public UnknownInstanceException(String instanceId) {
        super("Unknown instance " + Quoted.of(instanceId));
        this.instanceId = instanceId;
    }

    public String instanceId() {
        return instanceId;
    }
}
