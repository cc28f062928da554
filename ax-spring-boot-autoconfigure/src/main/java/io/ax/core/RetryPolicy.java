package io.ax.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and after which wait a failed or timed-out instance is tried again.
 *
 * @param maxRetries retries after the first attempt; 0 means the first failure is final
 * @param backoff how the wait grows
 * @param base the wait before the first retry; positive
 * @param max the longest wait; not shorter than {@code base}
 */
public record RetryPolicy(int maxRetries, Backoff backoff, Duration base, Duration max) {

    private static final RetryPolicy NONE =
            new RetryPolicy(0, Backoff.FIXED, Duration.ofSeconds(1), Duration.ofSeconds(1));

    /**
     * Checks the components.
     *
     * @param maxRetries retries after the first attempt; 0 or more
     * @param backoff how the wait grows; not null
     * @param base the wait before the first retry; positive, even when {@code maxRetries} is 0
     * @param max the longest wait; not shorter than {@code base}
     * @throws NullPointerException when {@code backoff}, {@code base} or {@code max} is null
     * @throws IllegalArgumentException when a component breaks its rule
     */
    public RetryPolicy {
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(max, "max");
        if (maxRetries < 0) {
            throw new IllegalArgumentException("retry times must be >= 0, was " + maxRetries);
        }
        if (base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("retry base must be positive, was " + base);
        }
        if (max.compareTo(base) < 0) {
            throw new IllegalArgumentException("retry max (" + max + ") must not be shorter than base (" + base + ")");
        }
    }

    /** {@return the policy of no retries: the first failure is final} */
    public static RetryPolicy none() {
        return NONE;
    }

    /**
     * Tells whether an instance whose attempt {@code attempt} just failed may be tried again.
     *
     * @param attempt the number of the attempt that failed, 1-based
     * @return true while {@code attempt} is not above {@link #maxRetries()}
     */
    public boolean allowsRetryAfter(int attempt) {
        return attempt <= maxRetries;
    }

    /**
     * Computes the wait before a retry.
     *
     * @param n the retry's number, 1-based: 1 for the retry after the first attempt
     * @return {@code base} for FIXED, {@code min(base * 2^(n-1), max)} for EXPONENTIAL
     * @throws IllegalArgumentException when {@code n} is below 1
     */
    public Duration delayBeforeRetry(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("retry number is 1-based, was " + n);
        }
        if (backoff == Backoff.FIXED) {
            return base;
        }
        long baseNanos = base.toNanos();
        int shift = n - 1;
        if (shift >= 62 || baseNanos > (Long.MAX_VALUE >> shift)) {
            return max;
        }
        Duration d = Duration.ofNanos(baseNanos << shift);
        return d.compareTo(max) > 0 ? max : d;
    }
}
