package io.ax.bench.cluster;

import io.ax.core.cluster.ClusterStore;
import io.ax.core.store.InstanceStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A node's store seen through a proxy that passes every call on and counts, per method, the calls, the rows they
 * returned and the items refused (a transition that lost its race); both {@link InstanceStore} and {@link
 * ClusterStore}, so that the engine still finds its cluster through it. {@code findOwned} is counted apart for this
 * node's own assignments (the claim poller) and for any node's ({@code *}, the leader), {@code findScheduled} apart
 * for the leader's overdue sweep ({@code sweep}, from the start of the index) and its window loads ({@code load}).
 * For the progress log: what each node asked of the database. Thread-safe.
 */
final class CountingStore implements InvocationHandler {

    private record Tally(LongAdder calls, LongAdder rows, LongAdder refused) {
        Tally() {
            this(new LongAdder(), new LongAdder(), new LongAdder());
        }
    }

    private final Object target;
    private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

    private CountingStore(Object target) {
        this.target = target;
    }

    /** The counted view of {@code store}, which must be both an {@link InstanceStore} and a {@link ClusterStore}. */
    static <S extends InstanceStore & ClusterStore> CountingStore around(S store) {
        return new CountingStore(store);
    }

    InstanceStore store() {
        return (InstanceStore) Proxy.newProxyInstance(
                InstanceStore.class.getClassLoader(), new Class<?>[] {InstanceStore.class, ClusterStore.class}, this);
    }

    /** {@code method:calls/rows/refused} for every method called since the last reset, then resets. */
    String drain() {
        StringJoiner out = new StringJoiner(",");
        new TreeMap<>(tallies).forEach((name, t) -> {
            long calls = t.calls().sumThenReset();
            long rows = t.rows().sumThenReset();
            long refused = t.refused().sumThenReset();
            if (calls > 0) {
                out.add(String.format(Locale.ROOT, "%s:%d/%d/%d", name, calls, rows, refused));
            }
        });
        return out.toString();
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Object result;
        try {
            result = method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        String name = method.getName();
        if (name.equals("findOwned")) {
            name += args[1] == null ? "(*)" : "(own)";
        } else if (name.equals("findScheduled")) {
            name += args[1] == null ? "(sweep)" : "(load)";
        } else if (method.getDeclaringClass() == ClusterStore.class || method.getDeclaringClass() == Object.class) {
            return result;
        }
        Tally t = tallies.computeIfAbsent(name, k -> new Tally());
        t.calls().increment();
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
        return result;
    }
}
