package io.ax.bench.delayed;

import io.ax.core.cluster.ClusterStore;
import io.ax.core.store.InstanceStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An {@link InstanceStore} that passes every call on and adds up, per method, the calls, the time spent in them
 * and the rows they returned. The engine offers no hook that says how long loading its window took; timing the
 * store calls it makes while starting answers that without touching the engine. Thread-safe.
 *
 * <p>The view is a {@link ClusterStore} too when the store is one, as the JDBC store is: the engine finds its cluster
 * (the lease, the node registry, the partitions) through it, as it finds it through the store itself. A view that hid
 * it would make the engine a cluster of its own in this JVM, whose new rows carry no partition (a later engine then
 * fills the partition of every row before it is ready).
 */
final class TimedStore implements InvocationHandler {

    /**
     * What one store method cost so far.
     *
     * @param rows the rows returned (lists) or the items answered (per-item boolean answers)
     * @param refused the items answered false (a transition that lost its race, a duplicate not written)
     */
    record Calls(long count, long nanos, long rows, long refused) {

        static final Calls NONE = new Calls(0, 0, 0, 0);

        double seconds() {
            return nanos / 1e9;
        }
    }

    private record Tally(LongAdder count, LongAdder nanos, LongAdder rows, LongAdder refused) {}

    private final InstanceStore target;
    private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

    private TimedStore(InstanceStore target) {
        this.target = target;
    }

    static TimedStore around(InstanceStore target) {
        return new TimedStore(target);
    }

    InstanceStore store() {
        Class<?>[] views = target instanceof ClusterStore
                ? new Class<?>[] {InstanceStore.class, ClusterStore.class}
                : new Class<?>[] {InstanceStore.class};
        return (InstanceStore) Proxy.newProxyInstance(InstanceStore.class.getClassLoader(), views, this);
    }

    /** The calls of {@code method} (an {@link InstanceStore} method name) so far. */
    Calls calls(String method) {
        Tally t = tallies.get(method);
        return t == null
                ? Calls.NONE
                : new Calls(
                        t.count().sum(),
                        t.nanos().sum(),
                        t.rows().sum(),
                        t.refused().sum());
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        long start = System.nanoTime();
        Object result = null;
        try {
            result = method.invoke(target, args);
            return result;
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            Tally t = tallies.computeIfAbsent(
                    method.getName(),
                    k -> new Tally(new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()));
            t.count().increment();
            t.nanos().add(System.nanoTime() - start);
            if (result instanceof Collection<?> rows) {
                t.rows().add(rows.size());
            } else if (result instanceof boolean[] answers) {
                t.rows().add(answers.length);
                for (boolean a : answers) {
                    if (!a) {
                        t.refused().increment();
                    }
                }
            } else if (Boolean.FALSE.equals(result)) {
                t.refused().increment();
            }
        }
    }
}
