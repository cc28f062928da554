package io.ax.core.store;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import java.util.Objects;

/**
 * An instance to be written straight into SCHEDULED (its CREATED and SCHEDULED rows are both audited).
 *
 * @param instance the instance, in state SCHEDULED with attempt 0
 * @param series true when the task's trigger made it: the task's next fire time becomes its scheduled time
 * @param reason why it was created, for the audit row
 */
public record NewFire(TaskInstance instance, boolean series, String reason) {

    public NewFire {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.SCHEDULED) {
            throw new IllegalArgumentException(
                    "a new fire must be SCHEDULED, " + instance.id() + " is " + instance.state());
        }
        reason = reason == null ? "" : reason;
    }
}
