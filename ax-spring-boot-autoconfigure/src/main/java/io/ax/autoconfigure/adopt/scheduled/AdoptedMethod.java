package io.ax.autoconfigure.adopt.scheduled;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * What AX's local-method executor calls for an adopted {@code @Scheduled} method: the method on its bean (through
 * the bean's proxies, as Spring's scheduler calls it), holding its ShedLock lock where it declares one.
 */
final class AdoptedMethod {

    static final Method RUN;

    static {
        try {
            RUN = AdoptedMethod.class.getDeclaredMethod("run");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object bean;
    private final Method method;
    private final SchedulerLocks locks;
    private final Optional<SchedulerLocks.Lock> lock;

    AdoptedMethod(Object bean, Method method, SchedulerLocks locks, Optional<SchedulerLocks.Lock> lock) {
        this.bean = bean;
        this.method = method;
        this.locks = locks;
        this.lock = lock;
        method.setAccessible(true);
    }

    /** Runs the method once; what it throws fails the attempt. */
    void run() throws Exception {
        if (lock.isPresent()) {
            locks.runHolding(lock.get(), this::invoke);
        } else {
            invoke();
        }
    }

    private void invoke() throws Exception {
        try {
            method.invoke(bean);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
