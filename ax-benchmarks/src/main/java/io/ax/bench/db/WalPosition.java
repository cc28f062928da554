package io.ax.bench.db;

/** PostgreSQL's WAL positions ({@code pg_current_wal_lsn()}), as bytes from the start of the WAL. */
public final class WalPosition {

    private WalPosition() {}

    /**
     * A WAL position as PostgreSQL prints it ({@code 16/B374D848}) as a number, so that two positions' difference
     * is the bytes written between them.
     *
     * @throws IllegalArgumentException when {@code text} is not one
     */
    public static long parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 1 || slash == text.length() - 1) {
            throw new IllegalArgumentException("not a WAL position: '" + text + "'");
        }
        return (Long.parseLong(text.substring(0, slash), 16) << 32) | Long.parseLong(text.substring(slash + 1), 16);
    }
}
