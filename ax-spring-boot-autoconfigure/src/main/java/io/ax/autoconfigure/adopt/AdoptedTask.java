package io.ax.autoconfigure.adopt;

import io.ax.core.AxTask;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * A task made from a schedule that another scheduler would have run: a Spring {@code @Scheduled} method, a Quartz
 * job and trigger. It is registered with the tasks defined for AX and shown as adopted.
 *
 * @param task the task AX runs
 * @param bean the bean whose method a LOCAL task invokes; null for other types
 * @param method the method a LOCAL task invokes; null for other types
 * @param origin what it was adopted from, for people: {@code @Scheduled on Reports.nightly()}
 */
public record AdoptedTask(AxTask task, Object bean, Method method, String origin) {

    public AdoptedTask {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(origin, "origin");
        if (AxTask.LOCAL.equals(task.type()) && (bean == null || method == null)) {
            throw new IllegalArgumentException("the LOCAL task '" + task.name() + "' needs a bean and a method");
        }
    }

    /** An adopted task that its own executor runs (not a bean method). */
    public static AdoptedTask of(AxTask task, String origin) {
        return new AdoptedTask(task, null, null, origin);
    }
}
