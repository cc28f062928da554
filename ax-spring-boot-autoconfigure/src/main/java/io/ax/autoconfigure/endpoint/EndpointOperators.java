package io.ax.autoconfigure.endpoint;

import io.ax.core.Operator;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Who calls a write operation of the {@code ax} endpoint: the principal and remote address of the current servlet
 * request, as whatever security the application uses (Spring Security, the container's own) set them; anonymous
 * otherwise.
 *
 * <p>Not Actuator's {@code SecurityContext} operation parameter: any parameter of a write operation that is not a
 * selector makes Actuator map the operation as consuming a JSON body, and a plain {@code curl -X POST} would be
 * refused with 415.
 */
final class EndpointOperators {

    private static final boolean SERVLET_WEB = ClassUtils.isPresent(
                    "org.springframework.web.context.request.ServletRequestAttributes",
                    EndpointOperators.class.getClassLoader())
            && ClassUtils.isPresent(
                    "jakarta.servlet.http.HttpServletRequest", EndpointOperators.class.getClassLoader());

    private EndpointOperators() {}

    /** The caller of the operation running on this thread. */
    static Operator current() {
        return SERVLET_WEB ? ServletCaller.current() : Operator.ANONYMOUS;
    }

    /** Whether the caller of the operation running on this thread is in {@code role}; never an anonymous one. */
    static boolean inRole(String role) {
        return SERVLET_WEB && role != null && !role.isBlank() && ServletCaller.inRole(role);
    }

    /** Touches the servlet API only when it is there. */
    private static final class ServletCaller {

        static boolean inRole(String role) {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (!(attributes instanceof ServletRequestAttributes servlet)) {
                return false;
            }
            HttpServletRequest request = servlet.getRequest();
            return request.getUserPrincipal() != null && request.isUserInRole(role);
        }

        static Operator current() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (!(attributes instanceof ServletRequestAttributes servlet)) {
                return Operator.ANONYMOUS;
            }
            HttpServletRequest request = servlet.getRequest();
            Principal principal = request.getUserPrincipal();
            String name =
                    principal == null || principal.getName() == null ? Operator.ANONYMOUS_NAME : principal.getName();
            return new Operator(name, request.getRemoteAddr());
        }
    }
}
