package io.ax.autoconfigure.adopt;

import java.util.List;

/**
 * A bean that turns another scheduler's schedules into AX tasks. Its tasks are asked for once every singleton
 * exists, and registered with the {@code @AxJob} and {@code ax.tasks} ones: a name used twice fails start-up.
 */
public interface AdoptedTaskSource {

    /** The tasks adopted; an invalid schedule throws {@link io.ax.autoconfigure.definitions.InvalidJobDefinitionException}. */
    List<AdoptedTask> adoptedTasks();
}
