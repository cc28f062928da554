package io.ax.core.logging;

/**
 * AX's loggers: {@link System.Logger}s that write to SLF4J, whatever class loader the application runs in. The JDK
 * finds its logger provider with the system class loader, which in a Spring Boot executable jar does not see the
 * application's libraries: there {@link System#getLogger} falls back to {@code java.util.logging}, whose own shutdown
 * hook closes its handlers while the application stops, so that every message of a graceful stop (work interrupted,
 * changes found missing) was lost. Asking SLF4J's finder directly keeps them in the application's log. Without
 * SLF4J's platform logging on the class path, the JDK's default is used.
 */
public final class Loggers {

    private static final System.LoggerFinder SLF4J = slf4j();

    private Loggers() {}

    /** The logger of that name. */
    public static System.Logger get(String name) {
        return SLF4J == null ? System.getLogger(name) : SLF4J.getLogger(name, Loggers.class.getModule());
    }

    private static System.LoggerFinder slf4j() {
        try {
            return new org.slf4j.jdk.platform.logging.SLF4JSystemLoggerFinder();
        } catch (LinkageError absent) {
            return null;
        }
    }
}
