package io.ax.core.engine.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads where the JVM has them (Java 21 and later), reached without compiling against them: AX is built
 * for Java 17, so the builder is found at run time, once. A pool that asks for them on an earlier JVM is refused
 * when it is configured, never on its first attempt.
 */
public final class VirtualThreads {

    /** {@code Thread.ofVirtual()}, or null on a JVM without virtual threads. */
    private static final MethodHandle OF_VIRTUAL = ofVirtual();

    private VirtualThreads() {}

    /**
     * A factory of virtual threads named {@code <prefix><n>} from 1, as {@link NamedThreadFactory} names platform
     * threads.
     *
     * @throws UnsupportedOperationException on a JVM without virtual threads
     */
    public static ThreadFactory factory(String prefix) {
        if (OF_VIRTUAL == null) {
            throw new UnsupportedOperationException("virtual threads need Java 21 or later; this JVM is Java "
                    + Runtime.version().feature());
        }
        try {
            Object builder = OF_VIRTUAL.invoke();
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            Object named = MethodHandles.publicLookup()
                    .findVirtual(ofVirtual, "name", MethodType.methodType(ofVirtual, String.class, long.class))
                    .invoke(builder, prefix, 1L);
            return (ThreadFactory) MethodHandles.publicLookup()
                    .findVirtual(
                            Class.forName("java.lang.Thread$Builder"),
                            "factory",
                            MethodType.methodType(ThreadFactory.class))
                    .invoke(named);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot build a factory of virtual threads on this JVM", e);
        }
    }

    private static MethodHandle ofVirtual() {
        try {
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            return MethodHandles.publicLookup().findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
        } catch (ReflectiveOperationException e) {
            return null; // before Java 21
        }
    }
}
