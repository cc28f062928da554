package io.ax.executor;

import io.ax.core.AxContext;
import io.ax.core.AxException;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs {@link AxTask#LOCAL} tasks by invoking a method of an object in this JVM. Each task is bound to its target
 * with {@link #bind}. The method takes no parameter or one {@link AxContext}; its return value counts only if it
 * is an {@link AxResult}. Thread-safe.
 */
public final class LocalMethodExecutor implements AxExecutor {

    private record Target(Object bean, Method method, boolean takesContext) {}

    private final Map<String, Target> targets = new ConcurrentHashMap<>();

    /**
     * Binds a task name to the method that runs it.
     *
     * @throws IllegalArgumentException when the method's parameters are not () or (AxContext), or the name is bound
     */
    public void bind(String taskName, Object bean, Method method) {
        Objects.requireNonNull(taskName, "taskName");
        Objects.requireNonNull(bean, "bean");
        Objects.requireNonNull(method, "method");
        Class<?>[] types = method.getParameterTypes();
        boolean takesContext = types.length == 1 && types[0] == AxContext.class;
        if (types.length > 1 || (types.length == 1 && !takesContext)) {
            throw new IllegalArgumentException(
                    "method " + method.getDeclaringClass().getName() + "." + method.getName()
                            + " must take no parameter or one AxContext");
        }
        method.setAccessible(true);
        if (targets.putIfAbsent(taskName, new Target(bean, method, takesContext)) != null) {
            throw new IllegalArgumentException("task '" + taskName + "' is already bound to a method");
        }
    }

    @Override
    public boolean matchTaskType(String type) {
        return AxTask.LOCAL.equals(type);
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        Target target = targets.get(task.name());
        if (target == null) {
            throw new AxException("No method is bound to local task '" + task.name() + "'");
        }
        Object returned;
        try {
            returned = target.takesContext()
                    ? target.method().invoke(target.bean(), context)
                    : target.method().invoke(target.bean());
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
        return returned instanceof AxResult result ? result : AxResult.success();
    }
}
