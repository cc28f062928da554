package io.ax.core.engine.threads;

import io.ax.core.logging.Loggers;

/**
 * The engine's one log: every room writes to the logger named after the facade, {@code io.ax.core.engine.AxEngine},
 * so that an operator turns the engine's messages up or down with one line of configuration, whichever room wrote
 * them.
 */
public final class EngineLog {

    /** The name of the engine's logger. */
    public static final String NAME = "io.ax.core.engine.AxEngine";

    private EngineLog() {}

    /** The engine's logger. */
    public static System.Logger get() {
        return Loggers.get(NAME);
    }
}
