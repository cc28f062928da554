package io.ax.autoconfigure.dashboard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Stands in for an application's security in these tests: a request with {@code X-Test-User: name:ROLE,ROLE} is
 * signed in as that user with those roles, as the servlet API shows them; any other request is anonymous.
 */
final class SignedInAs extends OncePerRequestFilter {

    static final String HEADER = "X-Test-User";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String user = request.getHeader(HEADER);
        if (user == null) {
            chain.doFilter(request, response);
            return;
        }
        String[] parts = user.split(":", 2);
        Principal principal = () -> parts[0];
        Set<String> roles = parts.length > 1 ? Set.of(parts[1].split(",")) : Set.of();
        chain.doFilter(
                new HttpServletRequestWrapper(request) {
                    @Override
                    public Principal getUserPrincipal() {
                        return principal;
                    }

                    @Override
                    public String getRemoteUser() {
                        return parts[0];
                    }

                    @Override
                    public boolean isUserInRole(String role) {
                        return roles.contains(role);
                    }
                },
                response);
    }
}
