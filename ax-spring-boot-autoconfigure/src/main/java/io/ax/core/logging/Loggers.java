package io.ax.core.logging;

import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * AX's loggers: {@link System.Logger}s from the logger provider of AX's own class loader. The JDK looks for its
 * provider with the system class loader, which in a Spring Boot executable jar does not see the application's
 * libraries: there {@link System#getLogger} falls back to {@code java.util.logging}, whose own shutdown hook closes its
 * handlers while the application stops, so that every message of a graceful stop (work interrupted, changes found
 * missing) was lost. Looked up here, SLF4J's provider ({@code slf4j-jdk-platform-logging}, which the starter brings)
 * is found wherever AX runs; without one, the JDK's default is used.
 */
public final class Loggers {

    private static final System.LoggerFinder FINDER = finder();

    private Loggers() {}

    /** The logger of that name. */
    public static System.Logger get(String name) {
        return FINDER == null ? System.getLogger(name) : FINDER.getLogger(name, Loggers.class.getModule());
    }

    private static System.LoggerFinder finder() {
        try {
            Iterator<System.LoggerFinder> found = ServiceLoader.load(
                            System.LoggerFinder.class, Loggers.class.getClassLoader())
                    .iterator();
            return found.hasNext() ? found.next() : null;
        } catch (ServiceConfigurationError e) {
            return null;
        }
    }
}
