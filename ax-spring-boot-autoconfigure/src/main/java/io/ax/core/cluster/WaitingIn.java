package io.ax.core.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a call that does not return waits, in one short line: the frame the thread waits in, the first frame outside
 * the JDK (the connection pool, the driver, the database's own lock) and the first of AX's frames (which call it is).
 * A heartbeat that hangs for want of a pooled connection reads {@code Unsafe.park < ConcurrentBag.borrow <
 * JdbcNodeRegistry.heartbeat}; one that waits for the database's answer, a socket read in the driver. Without it, a
 * node cut off by its own process (a pool drained by other work) looks the same as one cut off by the network.
 */
final class WaitingIn {

    private WaitingIn() {}

    /** The line for {@code stack} (innermost frame first); null for an empty stack (the thread is not running). */
    static String describe(StackTraceElement[] stack) {
        if (stack.length == 0) {
            return null;
        }
        List<String> frames = new ArrayList<>(3);
        frames.add(name(stack[0]));
        String outsideJdk = null;
        String ours = null;
        for (StackTraceElement frame : stack) {
            String cls = frame.getClassName();
            if (outsideJdk == null && !isJdk(cls)) {
                outsideJdk = name(frame);
            }
            if (cls.startsWith("io.ax.")) {
                ours = name(frame);
                break;
            }
        }
        for (String frame : new String[] {outsideJdk, ours}) {
            if (frame != null && !frames.contains(frame)) {
                frames.add(frame);
            }
        }
        return String.join(" < ", frames);
    }

    /** Where {@code thread} is now, or null when it is not running. */
    static String of(Thread thread) {
        return thread == null ? null : describe(thread.getStackTrace());
    }

    private static boolean isJdk(String cls) {
        return cls.startsWith("java.") || cls.startsWith("javax.") || cls.startsWith("jdk.") || cls.startsWith("sun.");
    }

    private static String name(StackTraceElement frame) {
        String cls = frame.getClassName();
        return cls.substring(cls.lastIndexOf('.') + 1) + "." + frame.getMethodName();
    }
}
