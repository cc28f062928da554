package io.ax.sample;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Stands in for the sample's security until it has one: the cookie {@code ax-test-user} names the user, and
 * {@code operator} has the roles OPERATOR and VIEWER, {@code viewer} only VIEWER, as the servlet API shows them.
 */
final class TestSecurity extends OncePerRequestFilter {

    static final String COOKIE = "ax-test-user";
    private static final Map<String, Set<String>> ROLES =
            Map.of("operator", Set.of("OPERATOR", "VIEWER"), "viewer", Set.of("VIEWER"));

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String user = null;
        for (Cookie c : request.getCookies() == null ? new Cookie[0] : request.getCookies()) {
            if (COOKIE.equals(c.getName()) && ROLES.containsKey(c.getValue())) {
                user = c.getValue();
            }
        }
        if (user == null) {
            chain.doFilter(request, response);
            return;
        }
        String name = user;
        Principal principal = () -> name;
        Set<String> roles = ROLES.get(user);
        chain.doFilter(
                new HttpServletRequestWrapper(request) {
                    @Override
                    public Principal getUserPrincipal() {
                        return principal;
                    }

                    @Override
                    public boolean isUserInRole(String role) {
                        return roles.contains(role);
                    }
                },
                response);
    }
}
