package io.ax.autoconfigure.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;

/**
 * Who looks at the dashboard, and whether the write buttons are shown to them: only to a signed-in user in the
 * write role, and only while the endpoint accepts writes at all. The buttons are a courtesy; the application's
 * security on the endpoint is what refuses a write.
 */
final class DashboardSessions {

    /**
     * The answer of {@code <path>/api/session}.
     *
     * @param user the signed-in user's name; null when nobody is signed in
     * @param canWrite whether the dashboard offers pause, resume, trigger, cancel and replay
     * @param endpointWritable whether the endpoint's access allows writes, whoever asks
     * @param endpoint the endpoint's URL path, context path included; null when it is not exposed
     */
    record Session(String user, boolean canWrite, boolean endpointWritable, String endpoint) {}

    private final String writeRole;
    private final EndpointFacts endpoint;

    DashboardSessions(String writeRole, EndpointFacts endpoint) {
        this.writeRole = writeRole;
        this.endpoint = endpoint;
    }

    Session of(HttpServletRequest request) {
        Principal principal = request.getUserPrincipal();
        String user = principal == null ? null : principal.getName();
        boolean writable = endpoint.writable();
        boolean inRole = user != null && writeRole != null && !writeRole.isBlank() && request.isUserInRole(writeRole);
        String path = endpoint.path();
        return new Session(user, writable && inRole, writable, path == null ? null : request.getContextPath() + path);
    }
}
