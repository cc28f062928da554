package io.ax.core;

import java.util.Objects;

/**
 * Who asked for an operator's action (trigger, pause, resume, cancel, replay): written into the audit trail of the
 * instances it touches and into its log line, so that "who did this" has an answer. Names and addresses come from
 * the caller (an HTTP request's principal and remote address) and are only recorded, never trusted for anything.
 *
 * @param name the principal's name; {@code "anonymous"} when nobody was authenticated
 * @param address the remote address the action came from; null when unknown
 */
public record Operator(String name, String address) {

    /** The principal name of an action nobody authenticated for. */
    public static final String ANONYMOUS_NAME = "anonymous";

    /** An unauthenticated caller, from an unknown address. */
    public static final Operator ANONYMOUS = new Operator(ANONYMOUS_NAME, null);

    /**
     * Normalizes the components: a blank name becomes {@value #ANONYMOUS_NAME}, a blank address null; both are stripped
     * of surrounding white space.
     *
     * @param name the principal's name; not null, blank for nobody authenticated
     * @param address the remote address the action came from; null or blank when unknown
     * @throws NullPointerException when {@code name} is null
     */
    public Operator {
        Objects.requireNonNull(name, "name");
        name = name.isBlank() ? ANONYMOUS_NAME : name.strip();
        address = address == null || address.isBlank() ? null : address.strip();
    }

    /**
     * An operator without a known address.
     *
     * @param name the principal's name; not null, blank for nobody authenticated
     * @return the operator
     * @throws NullPointerException when {@code name} is null
     */
    public static Operator named(String name) {
        return new Operator(name, null);
    }

    /**
     * How the audit trail and the log name this operator: {@code 'alice' from 10.0.0.7}, or {@code 'alice'}. The
     * name is quoted and bounded (see {@link Quoted}), its control characters shown as {@code ?}, so that a crafted
     * one can neither pass for other words of the reason nor start a new log line.
     *
     * @return the operator as the audit trail and the log name it
     */
    public String describe() {
        String who = Quoted.of(printable(name));
        return address == null ? who : who + " from " + printable(address);
    }

    private static String printable(String text) {
        return text.replaceAll("\\p{Cntrl}", "?");
    }
}
