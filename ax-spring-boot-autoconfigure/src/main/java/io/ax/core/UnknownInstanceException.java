package io.ax.core;

/** Thrown when an operation names an instance the store does not hold. */
public final class UnknownInstanceException extends AxException {

    /** The id as the caller gave it. */
    private final String instanceId;

    /**
     * An exception naming the instance id, quoted and bounded.
     *
     * @param instanceId the id as the caller gave it
     */
    public UnknownInstanceException(String instanceId) {
        super("Unknown instance " + Quoted.of(instanceId));
        this.instanceId = instanceId;
    }

    /** {@return the id as the caller gave it} */
    public String instanceId() {
        return instanceId;
    }
}
