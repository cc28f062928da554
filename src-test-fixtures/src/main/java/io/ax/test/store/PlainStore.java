package io.ax.test.store;

import io.ax.core.Transition;
import io.ax.core.store.InstanceStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Stores behind an interface that offers nothing but {@link InstanceStore}, as an application's own wrapper around its
 * store would: the engine sees no lease, registry or partitions of the store's. A hook may run before each call, to
 * count it, hold it or fail it.
 */
public final class PlainStore {

    /** Runs before a call reaches the store, with the method's name and arguments; what it throws is the call's. */
    @FunctionalInterface
    public interface Hook {
        void before(String method, Object[] args) throws Exception;
    }

    /** The answer of a store that takes state changes only: per change, whether it applied. */
    @FunctionalInterface
    public interface Changes {
        boolean[] apply(List<Transition> transitions) throws Exception;
    }

    private PlainStore() {}

    /** {@code store} behind nothing but {@link InstanceStore}. */
    public static InstanceStore of(InstanceStore store) {
        return of(store, (method, args) -> {});
    }

    /** {@code store} behind nothing but {@link InstanceStore}, each call passing {@code hook} first. */
    public static InstanceStore of(InstanceStore store, Hook hook) {
        return (InstanceStore) Proxy.newProxyInstance(
                InstanceStore.class.getClassLoader(), new Class<?>[] {InstanceStore.class}, (proxy, method, args) -> {
                    hook.before(method.getName(), args);
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * A store that takes groups of state changes ({@code transitionAll}) and nothing else, answered by {@code changes}:
     * for the tests of a writer. Any other call fails as unsupported.
     */
    public static InstanceStore changesOnly(Changes changes) {
        return (InstanceStore) Proxy.newProxyInstance(
                InstanceStore.class.getClassLoader(), new Class<?>[] {InstanceStore.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("transitionAll")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    List<Transition> transitions = (List<Transition>) args[0];
                    return changes.apply(transitions);
                });
    }
}
