package io.ax.core.store;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import java.util.Objects;

/**
 * An instance to be written straight into SCHEDULED (its CREATED and SCHEDULED rows are both audited).
 *
 * @param instance the instance, in state SCHEDULED with attempt 0; its key, if any, must be new for its task
 * @param reason why it was created, for the audit row
 * @param payload the bytes handed to the task when it runs, or null
 */
public record NewFire(TaskInstance instance, String reason, byte[] payload) {

    public NewFire {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.SCHEDULED) {
            throw new IllegalArgumentException(
                    "a new fire must be SCHEDULED, " + instance.id() + " is " + instance.state());
        }
        reason = reason == null ? "" : reason;
    }

    /** A fire without payload. */
    public NewFire(TaskInstance instance, String reason) {
        this(instance, reason, null);
    }

    /** Whether the task's trigger made it: the task's next fire time becomes its scheduled time. */
    public boolean series() {
        return instance.origin() == InstanceOrigin.SERIES;
    }
}
