package io.ax.autoconfigure.dashboard;

import java.net.URI;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The dashboard's URLs: {@code <path>} (sent on to {@code <path>/}, so that the page's relative links resolve),
 * {@code <path>/} (the page), {@code <path>/api/session} (who is looking) and the page's scripts and styles.
 */
final class DashboardRoutes {

    static final String LOCATION = "io/ax/dashboard/";

    /**
     * The page loads only its own files and talks only to its own origin: even a value that escaped the page's
     * escaping could neither run inline script nor load any from elsewhere.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

    private DashboardRoutes() {}

    static RouterFunction<ServerResponse> of(String path, DashboardSessions sessions) {
        String base = normalized(path);
        Resource page = new ClassPathResource(LOCATION + "index.html");
        return RouterFunctions.route()
                .GET(
                        base,
                        request -> ServerResponse.status(302)
                                .location(URI.create(request.servletRequest().getContextPath() + base + "/"))
                                .build())
                .GET(
                        base + "/",
                        request -> ServerResponse.ok()
                                .contentType(MediaType.TEXT_HTML)
                                .headers(DashboardRoutes::pageHeaders)
                                .body(page))
                .GET(
                        base + "/api/session",
                        request -> ServerResponse.ok()
                                .contentType(MediaType.APPLICATION_JSON)
                                .cacheControl(CacheControl.noStore())
                                .body(sessions.of(request.servletRequest())))
                .resources(base + "/**", new ClassPathResource(LOCATION), (resource, headers) -> pageHeaders(headers))
                .build();
    }

    private static void pageHeaders(HttpHeaders headers) {
        // the files change with the jar, and an old script against a new endpoint would misread it
        headers.setCacheControl(CacheControl.noCache());
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
    }

    /** {@code ax}, {@code /ax/} and {@code /ax} all mean {@code /ax}. */
    static String normalized(String path) {
        if (path == null || path.isBlank() || path.strip().equals("/")) {
            throw new IllegalArgumentException(
                    "ax.dashboard.path must name a path below the root, e.g. /ax; was '" + path + "'");
        }
        String p = path.strip();
        if (!p.startsWith("/")) {
            p = "/" + p;
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
