package io.ax.autoconfigure;

import io.ax.core.AxException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Keys under {@code ax.} that no AX setting reads, with {@code ax.strict-properties=true}: start-up stops, naming
 * each key, where it was set and the nearest name AX knows.
 */
public final class UnknownAxPropertiesException extends AxException {

    private final List<String> names;

    UnknownAxPropertiesException(List<UnknownAxProperties.Unknown> unknown) {
        super(describe(unknown));
        this.names = unknown.stream().map(UnknownAxProperties.Unknown::name).toList();
    }

    /** The keys, by name. */
    public List<String> names() {
        return names;
    }

    static String describe(List<UnknownAxProperties.Unknown> unknown) {
        return "AX does not know "
                + (unknown.size() == 1
                        ? "this property, which therefore has"
                        : "these properties," + " which therefore have")
                + " no effect:\n"
                + unknown.stream().map(u -> "  - " + u.describe()).collect(Collectors.joining("\n"));
    }

    /** What to do about it. */
    String fix() {
        return "Correct or remove " + (names.size() == 1 ? "it" : "them")
                + " (the README's \"Configuration\" lists every ax.* setting), or set ax.strict-properties=false to"
                + " have them reported as a warning instead.";
    }
}
