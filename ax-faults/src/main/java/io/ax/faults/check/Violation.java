package io.ax.faults.check;

/**
 * A broken promise, as one check found it.
 *
 * @param check the check's name
 * @param instanceId the instance at fault, or null when the violation is not about one (an order without its close)
 * @param message what is wrong, with the figures that show it
 * @param atUs when it happened (database clock), to find the faults around it; 0 when unknown
 */
public record Violation(String check, String instanceId, String message, long atUs) {}
