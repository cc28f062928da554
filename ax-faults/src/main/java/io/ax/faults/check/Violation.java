package io.ax.faults.check;

/**
 * A broken promise, as one check found it.
 *
 * @param check the check's name
 * @param instanceId the instance at fault, or null when the violation is not about one (an order without its close)
 * @param message what is wrong, with the figures that show it
 * @param atUs when it happened (database clock), to find the faults around it; 0 when unknown
 * @param relatedId another instance the violation is about (the run it overlapped, say), whose trail the report
 *     shows too; null when there is none
 */
public record Violation(String check, String instanceId, String message, long atUs, String relatedId) {

    /** A violation about one instance, or none. */
    public Violation(String check, String instanceId, String message, long atUs) {
        this(check, instanceId, message, atUs, null);
    }
}
