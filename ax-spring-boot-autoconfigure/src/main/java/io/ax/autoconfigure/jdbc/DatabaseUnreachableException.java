package io.ax.autoconfigure.jdbc;

import io.ax.core.AxException;

/** AX keeps its instances in the application's database (it has a DataSource), and that database does not answer. */
final class DatabaseUnreachableException extends AxException {

    DatabaseUnreachableException(Throwable cause) {
        super(
                "AX keeps its instances in the application's database, and it cannot reach it: " + describe(cause),
                cause);
    }

    /**
     * The driver's words (connection refused at which address, unknown host, password failed): the message of the
     * first SQLException in the chain, else of the innermost cause.
     */
    static String describe(Throwable failure) {
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.sql.SQLException
                    && t.getMessage() != null
                    && !t.getMessage().isBlank()) {
                return t.getMessage().strip();
            }
            root = t;
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message.strip();
    }
}
