package io.ax.core.store;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Cluster-wide permits: what bounds how many attempts of a group, of a task, or of one mutex key run at once across
 * every node. A permit is a row (key, slot), unique, with {@code 0 <= slot < permits}; it names the attempt that holds
 * it. The attempt holds it exactly while its instance is RUNNING at that attempt number: a row whose attempt is over
 * (the instance ended, went back to SCHEDULED, was taken over, or is gone) is free, whatever the row says, and the
 * next claim that needs its slot deletes it with a write conditional on that. So a permit of a node that died comes
 * back as soon as its attempt is taken over (lease plus heartbeat), and a release that was lost costs nothing.
 *
 * <p>A permit is taken in the same transaction as the claim it is for ({@link #claim}): either the claim and all its
 * permits commit, or nothing does. No row is ever held by an attempt that is not RUNNING and no RUNNING attempt of a
 * limited task lacks its row, so at most {@code permits} attempts hold a key at any moment, whatever nodes pause, die
 * or lose their connection. That is the stores' own permits; permits kept elsewhere (Redis) cannot share the claim's
 * transaction and give the same bound by a permit taken before the claim and confirmed after it, an attempt whose
 * permit was lost meanwhile going back unstarted. Thread-safe.
 */
public interface Permits {

    /** The longest key a store keeps; {@link Limit} refuses a longer one. */
    int MAX_KEY_LENGTH = 300;

    /**
     * A limit an attempt needs a permit of.
     *
     * @param key what is limited, e.g. {@code group:payments}, {@code task:export}, {@code mutex:customer-7}, {@code
     *     rate:task:export}
     * @param permits how many attempts may hold it at once; 1 for a mutex. For a rate, how many may start in any
     *     {@code window}
     * @param window null for a limit of attempts at once, whose permit is held while its attempt is RUNNING; for a
     *     rate, how long a permit is held from its claim on the database's clock, whatever its attempt does: at most
     *     {@code permits} claims in any window of this length (a sliding log, exact)
     */
    record Limit(String key, int permits, java.time.Duration window) {

        /** A limit of attempts at once. */
        public Limit(String key, int permits) {
            this(key, permits, null);
        }

        /** Whether it limits starts per window rather than attempts at once. */
        public boolean isRate() {
            return window != null;
        }

        public Limit {
            if (window != null && (window.isNegative() || window.isZero())) {
                throw new IllegalArgumentException("the window of a rate is positive: " + key + " has " + window);
            }
            Objects.requireNonNull(key, "key");
            if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
                throw new IllegalArgumentException(
                        "a permit key has 1 to " + MAX_KEY_LENGTH + " characters: '" + key + "'");
            }
            if (permits < 1) {
                throw new IllegalArgumentException("a limit has at least 1 permit: " + key + " has " + permits);
            }
        }
    }

    /** What a claim with permits came to. */
    enum Result {
        /** The claim and every permit committed: the attempt may start. */
        CLAIMED,
        /** The claim's condition failed (the instance moved on, or is another node's): nothing was written. */
        NOT_APPLIED,
        /** A limit had no free permit: nothing was written, the instance stays as it was. */
        WAITS
    }

    /**
     * @param result what happened
     * @param waitsFor when {@link Result#WAITS}, the limit without a free permit; otherwise null
     * @param holders when {@link Result#WAITS}, the instances holding that limit's permits; otherwise empty
     * @param cause when the permits could not be looked at ({@link #unavailable}), why; otherwise null
     */
    record Outcome(Result result, Limit waitsFor, List<String> holders, String cause) {

        public static final Outcome CLAIMED = new Outcome(Result.CLAIMED, null, List.of(), null);
        public static final Outcome NOT_APPLIED = new Outcome(Result.NOT_APPLIED, null, List.of(), null);

        public static Outcome waits(Limit limit, List<String> holders) {
            return new Outcome(Result.WAITS, limit, List.copyOf(holders), null);
        }

        /**
         * A wait because the permits of {@code limit} cannot be looked at now, e.g. where they are kept does not
         * answer: nothing was written, the instance stays as it was.
         */
        public static Outcome unavailable(Limit limit, String cause) {
            return new Outcome(Result.WAITS, limit, List.of(), Objects.requireNonNull(cause, "cause"));
        }

        /**
         * What the audit row of a wait says, e.g. {@code waits for a permit of mutex:customer-7 (1 of 1 held by
         * 0192...)}; for another result, its name.
         */
        public String reason() {
            if (result != Result.WAITS) {
                return result.name();
            }
            if (cause != null) {
                return "waits for a permit of " + waitsFor.key() + ": " + cause;
            }
            String prefix = "waits for a permit of " + waitsFor.key() + " (";
            if (holders.isEmpty()) { // lost to claims that had not committed when it read the holders
                return prefix + "all " + waitsFor.permits() + " taken by claims under way)";
            }
            return prefix + holders.size() + " of " + waitsFor.permits() + " held by " + String.join(", ", holders)
                    + ")";
        }
    }

    /**
     * Takes a permit of each limit (in the order of their keys, so that two claims never wait for each other) and
     * applies {@code claim}, a conditional change to RUNNING (fenced like any claim), in one transaction. The slot
     * taken is the lowest without a row or whose row names an attempt that is over; that row is deleted on the
     * condition that the attempt is still over. An attempt already holding a permit of a limit (a row naming this
     * instance and attempt: one given back unstarted and claimed again) keeps it.
     *
     * @param claim SCHEDULED or RETRYING -&gt; RUNNING; the permits name its instance and its {@link
     *     Transition#attempt()}
     * @param limits the limits the attempt needs, at most one per key
     * @param auditWait when the claim waits, whether to write one audit row saying so (from its state to the same
     *     state, with the limit and its holders as the reason); the caller asks once per wait, not per try
     * @return what happened
     * @throws io.ax.core.cluster.FencedOutException when the claim's fence refuses it: nothing was written
     * @throws IllegalArgumentException as {@link #inKeyOrder} does
     */
    Outcome claim(Transition claim, List<Limit> limits, boolean auditWait);

    /**
     * Writes the audit row of a wait of {@code claim}'s instance: from its state to the same, at the attempt it has,
     * with {@code reason}; only while it is still in {@link Transition#from()}.
     */
    void noteWait(Transition claim, String reason);

    /**
     * The limits of {@code claim} in the order every store takes them: by key.
     *
     * @throws IllegalArgumentException when {@code claim} is no change from SCHEDULED or RETRYING to RUNNING, or two
     *     limits share a key
     */
    static List<Limit> inKeyOrder(Transition claim, List<Limit> limits) {
        Objects.requireNonNull(claim, "claim");
        if (claim.to() != InstanceState.RUNNING
                || (claim.from() != InstanceState.SCHEDULED && claim.from() != InstanceState.RETRYING)) {
            throw new IllegalArgumentException(
                    "a claim with permits moves a SCHEDULED or RETRYING instance to RUNNING, " + claim.instanceId()
                            + " moves from " + claim.from() + " to " + claim.to());
        }
        List<Limit> ordered =
                limits.stream().sorted(Comparator.comparing(Limit::key)).toList();
        for (int i = 1; i < ordered.size(); i++) {
            if (ordered.get(i).key().equals(ordered.get(i - 1).key())) {
                throw new IllegalArgumentException("a claim needs at most one limit per key, " + claim.instanceId()
                        + " has two of " + ordered.get(i).key());
            }
        }
        return ordered;
    }

    /**
     * Gives back every permit {@code attempt} of {@code instanceId} holds, once the attempt is over in the store. If
     * it is never called (the node died), the permits are free anyway once the attempt is over. Rows of an attempt that
     * is RUNNING stay: its end is not stored yet (the caller asks again), or it runs again (one given back unstarted is
     * claimed anew with its number, and a late release must not free the permit of that new run).
     *
     * @return how many of the attempt's rows stayed because it is RUNNING
     */
    int release(String instanceId, int attempt);

    /**
     * Whether {@link #release} gives back at once what the attempt's claim took, without waiting for its end to be
     * stored, in one short call: then the engine calls it on the attempt's worker as soon as the worker is done with
     * it, ahead of the claims waiting for the permits. False (the default): it is called off the worker, and again
     * while it keeps permits.
     */
    default boolean releasesAtOnce() {
        return false;
    }

    /**
     * The permits held now, at most {@code limit} rows, by key then slot: rows whose attempt is over are left out.
     */
    List<Held> held(int limit);

    /**
     * One permit held.
     *
     * @param key the limit's key
     * @param slot which of its permits
     * @param instanceId the instance whose attempt holds it
     * @param attempt that attempt
     * @param node the node that claimed it
     */
    record Held(String key, int slot, String instanceId, int attempt, String node) {}
}
