package io.ax.autoconfigure;

import io.ax.core.engine.AxEngine;
import org.springframework.context.SmartLifecycle;

/** Starts the engine once the context is refreshed (every @AxJob registered) and stops it first on shutdown. */
final class AxEngineLifecycle implements SmartLifecycle {

    private final AxEngine engine;

    AxEngineLifecycle(AxEngine engine) {
        this.engine = engine;
    }

    @Override
    public void start() {
        engine.start();
    }

    @Override
    public void stop() {
        engine.stop();
    }

    @Override
    public boolean isRunning() {
        return engine.isRunning();
    }
}
