package io.ax.core;

/**
 * Quotes a name a caller gave, for an exception's message: in full when it is short, else its start and its length,
 * so that a megabyte of garbage sent to an operation does not come back as a megabyte of message (or of log line).
 */
final class Quoted {

    static final int SHOWN = 200;

    private Quoted() {}

    static String of(String name) {
        if (name == null) {
            return "null";
        }
        if (name.length() <= SHOWN) {
            return "'" + name + "'";
        }
        int end = Character.isHighSurrogate(name.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN; // keep a pair whole
        return "'" + name.substring(0, end) + "...' (" + name.length() + " characters)";
    }
}
