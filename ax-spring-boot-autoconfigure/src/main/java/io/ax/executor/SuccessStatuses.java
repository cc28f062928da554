package io.ax.executor;

/**
 * Which HTTP status codes count as success: {@code 2xx} (the default), single codes, ranges and classes in a comma
 * list, such as {@code 200,202} or {@code 2xx,304} or {@code 200-299}. Immutable.
 */
final class SuccessStatuses {

    static final SuccessStatuses DEFAULT = parse("2xx");

    /** Bit {@code code - 100} set for each successful code (100-599). */
    private final java.util.BitSet codes;

    private final String text;

    private SuccessStatuses(java.util.BitSet codes, String text) {
        this.codes = codes;
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the part that is not a code, range or class */
    static SuccessStatuses parse(String text) {
        java.util.BitSet codes = new java.util.BitSet(500);
        for (String raw : text.split(",")) {
            String part = raw.trim().toLowerCase(java.util.Locale.ROOT);
            int from;
            int to;
            try {
                if (part.matches("[1-5]xx")) {
                    from = (part.charAt(0) - '0') * 100;
                    to = from + 99;
                } else if (part.matches("\\d{3}-\\d{3}")) {
                    from = Integer.parseInt(part.substring(0, 3));
                    to = Integer.parseInt(part.substring(4));
                } else if (part.matches("\\d{3}")) {
                    from = Integer.parseInt(part);
                    to = from;
                } else {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "'" + raw.trim() + "' is not a status code, range or class (use e.g. 2xx, 200,204 or 200-299)");
            }
            if (from < 100 || to > 599 || to < from) {
                throw new IllegalArgumentException("'" + raw.trim() + "' is not within 100-599");
            }
            codes.set(from - 100, to - 100 + 1);
        }
        return new SuccessStatuses(codes, text.trim());
    }

    boolean contains(int status) {
        return status >= 100 && status <= 599 && codes.get(status - 100);
    }

    @Override
    public String toString() {
        return text;
    }
}
