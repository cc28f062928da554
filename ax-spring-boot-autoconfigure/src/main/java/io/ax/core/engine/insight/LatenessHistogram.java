package io.ax.core.engine.insight;

/**
 * Counts durations in milliseconds in a fixed set of bins, so that percentiles of any number of samples cost a few
 * hundred ints: values under 16 ms have a bin each, larger ones 8 bins per power of two (each bin at most 12.5 %
 * wide), up to about 24 days; longer values share the last bin. It travels between nodes as text ({@link #encode}):
 * the bins that hold a value, so that the histograms of several nodes add up to the cluster's. Not thread-safe: its
 * owner guards it.
 */
final class LatenessHistogram {

    private static final int EXACT = 16;
    private static final int SUB_BINS = 8;
    private static final int SUB_BITS = 3;
    private static final int FIRST_EXPONENT = 4; // 2^4 = EXACT
    private static final int LAST_EXPONENT = 30;
    static final int BINS = EXACT + (LAST_EXPONENT - FIRST_EXPONENT + 1) * SUB_BINS;

    private final int[] counts = new int[BINS];
    private long total;

    void record(long millis) {
        counts[bin(Math.max(0, millis))]++;
        total++;
    }

    void clear() {
        java.util.Arrays.fill(counts, 0);
        total = 0;
    }

    void addTo(LatenessHistogram sum) {
        for (int i = 0; i < BINS; i++) {
            sum.counts[i] += counts[i];
        }
        sum.total += total;
    }

    long count() {
        return total;
    }

    /**
     * This histogram as text: {@code bin:count} for each bin that holds a value, in bin order, separated by commas;
     * empty when nothing was recorded. At most {@value #BINS} pairs, so always under 4,000 characters.
     */
    String encode() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < BINS; i++) {
            if (counts[i] != 0) {
                if (text.length() > 0) {
                    text.append(',');
                }
                text.append(i).append(':').append(counts[i]);
            }
        }
        return text.toString();
    }

    /**
     * Adds what {@code text} (as {@link #encode} writes it) holds to this histogram. Text it cannot read (another
     * version's, or damaged) adds nothing and is answered false: a chart then misses one node's minute, which is
     * better than no chart.
     */
    boolean addEncoded(String text) {
        if (text.isEmpty()) {
            return true;
        }
        int[] parsed = new int[BINS];
        long added = 0;
        try {
            for (String pair : text.split(",", BINS + 1)) {
                int colon = pair.indexOf(':');
                int bin = Integer.parseInt(pair.substring(0, colon));
                int count = Integer.parseInt(pair.substring(colon + 1));
                if (bin < 0 || bin >= BINS || count < 0) {
                    return false;
                }
                parsed[bin] += count;
                added += count;
            }
        } catch (RuntimeException unreadable) {
            return false;
        }
        for (int i = 0; i < BINS; i++) {
            counts[i] += parsed[i];
        }
        total += added;
        return true;
    }

    /**
     * The value at quantile {@code q} (0 &lt; q &lt;= 1): the largest value the bin holding it can hold, so the
     * answer is never below the true one and at most 12.5 % above it; null when nothing was recorded.
     */
    Long percentile(double q) {
        if (total == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < BINS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return highest(i);
            }
        }
        return highest(BINS - 1);
    }

    static int bin(long millis) {
        if (millis < EXACT) {
            return (int) millis;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(millis);
        if (exponent > LAST_EXPONENT) {
            return BINS - 1;
        }
        int sub = (int) (millis >>> (exponent - SUB_BITS)) & (SUB_BINS - 1);
        return EXACT + (exponent - FIRST_EXPONENT) * SUB_BINS + sub;
    }

    /** The largest value bin {@code i} holds. */
    static long highest(int i) {
        if (i < EXACT) {
            return i;
        }
        int exponent = FIRST_EXPONENT + (i - EXACT) / SUB_BINS;
        int sub = (i - EXACT) % SUB_BINS;
        long width = 1L << (exponent - SUB_BITS);
        return (1L << exponent) + (sub + 1) * width - 1;
    }
}
