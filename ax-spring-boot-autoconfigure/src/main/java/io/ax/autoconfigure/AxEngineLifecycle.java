package io.ax.autoconfigure;

import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.engine.AxEngine;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the engine once the context is refreshed (every @AxJob registered) and stops it first on shutdown. At start
 * it warns about each task declared PERSISTENT while the instances are kept in memory: a forgotten DataSource must
 * not lose durability silently.
 */
final class AxEngineLifecycle implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(AxEngineLifecycle.class);

    private final AxEngine engine;

    AxEngineLifecycle(AxEngine engine) {
        this.engine = engine;
    }

    @Override
    public void start() {
        engine.start();
        if (!engine.store().describe().durable()) {
            warnAboutLostDurability();
        }
    }

    private void warnAboutLostDurability() {
        List<String> persistent = engine.tasks().stream()
                .filter(t -> t.durability() == Durability.PERSISTENT)
                .map(AxTask::name)
                .sorted()
                .toList();
        for (String task : persistent) {
            LOG.warn(
                    "Task '{}' is declared PERSISTENT, but AX keeps its instances in memory: they are lost when the"
                            + " process stops. Give the application a DataSource (AX then keeps them in the database)"
                            + " or declare the task MEMORY.",
                    task);
        }
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
