package io.ax.sample.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.authentication.www.BasicAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Who may do what in the sample:
 *
 * <ul>
 *   <li>{@code /actuator/health} is public (load balancers, probes);
 *   <li>reads of {@code /actuator/ax} (and the other Actuator endpoints, metrics included) need the role VIEWER or
 *       OPERATOR; its writes (trigger, pause, resume, cancel, replay) need OPERATOR;
 *   <li>the dashboard's pages under {@code ax.dashboard.path} need VIEWER or OPERATOR;
 *   <li>the sample's own {@code /orders} API stays public, as the business API it stands for is not AX's to guard.
 * </ul>
 *
 * Scripts authenticate with HTTP Basic and need no CSRF token; browsers log in with the form at {@code /login}, and
 * the dashboard's JavaScript sends the token of the {@code XSRF-TOKEN} cookie back in an {@code X-XSRF-TOKEN} header
 * with every write.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(SampleUsers.class)
public class SampleSecurity {

    static final String VIEWER = "VIEWER";
    static final String OPERATOR = "OPERATOR";

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    UserDetailsService sampleUsers(SampleUsers users, PasswordEncoder encoder) {
        return new InMemoryUserDetailsManager(
                User.withUsername("viewer")
                        .password(encoder.encode(users.viewerPassword()))
                        .roles(VIEWER)
                        .build(),
                User.withUsername("operator")
                        .password(encoder.encode(users.operatorPassword()))
                        .roles(OPERATOR)
                        .build());
    }

    // tag::security-filter-chain[]
    @Bean
    SecurityFilterChain sampleSecurityFilterChain(
            HttpSecurity http,
            @Value("${ax.dashboard.enabled:false}") boolean dashboard,
            @Value("${ax.dashboard.path:/ax}") String dashboardPath)
            throws Exception {
        String home = dashboard ? dashboardPath + "/" : "/actuator/ax";
        http.authorizeHttpRequests(requests -> requests.requestMatchers("/actuator/health", "/actuator/health/**")
                        .permitAll()
                        .requestMatchers(HttpMethod.GET, "/actuator/ax", "/actuator/ax/**")
                        .hasAnyRole(VIEWER, OPERATOR)
                        .requestMatchers("/actuator/ax", "/actuator/ax/**")
                        .hasRole(OPERATOR)
                        .requestMatchers("/actuator", "/actuator/**", dashboardPath, dashboardPath + "/**")
                        .hasAnyRole(VIEWER, OPERATOR)
                        .anyRequest()
                        .permitAll())
                .httpBasic(Customizer.withDefaults())
                .formLogin(form -> form.defaultSuccessUrl(home, false))
                // spa(): the token in an XSRF-TOKEN cookie JavaScript can read (CookieCsrfTokenRepository
                // .withHttpOnlyFalse()), accepted raw from the X-XSRF-TOKEN header and masked from the login form
                .csrf(csrf -> csrf.spa()
                        // scripts that send credentials with every request are no target of a forged cross-site
                        // request; the sample's JSON API takes no cookie-authenticated writes
                        .ignoringRequestMatchers(
                                request -> request.getHeader("Authorization") != null,
                                PathPatternRequestMatcher.pathPattern("/orders/**"),
                                PathPatternRequestMatcher.pathPattern("/orders")))
                .addFilterAfter(new CsrfCookieFilter(), BasicAuthenticationFilter.class)
                // a client of the Actuator gets 401 with a Basic challenge, never the login page's redirect; an
                // anonymous write too, which the CSRF check would otherwise refuse with 403 before anyone asked who
                .exceptionHandling(exceptions -> exceptions
                        .defaultAuthenticationEntryPointFor(basicEntryPoint(), ACTUATOR)
                        .defaultAccessDeniedHandlerFor(askAnonymousToAuthenticate(), ACTUATOR)
                        .defaultAccessDeniedHandlerFor(new AccessDeniedHandlerImpl(), AnyRequestMatcher.INSTANCE));
        return http.build();
    }
    // end::security-filter-chain[]

    private static final PathPatternRequestMatcher ACTUATOR = PathPatternRequestMatcher.pathPattern("/actuator/**");

    private static AccessDeniedHandler askAnonymousToAuthenticate() {
        AuthenticationEntryPoint basic = basicEntryPoint();
        AccessDeniedHandler forbidden = new AccessDeniedHandlerImpl();
        AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();
        return (request, response, denied) -> {
            Authentication who = SecurityContextHolder.getContext().getAuthentication();
            if (who == null || trust.isAnonymous(who)) {
                basic.commence(
                        request, response, new InsufficientAuthenticationException("credentials needed", denied));
            } else {
                forbidden.handle(request, response, denied);
            }
        };
    }

    private static BasicAuthenticationEntryPoint basicEntryPoint() {
        BasicAuthenticationEntryPoint entryPoint = new BasicAuthenticationEntryPoint();
        entryPoint.setRealmName("ax-sample");
        entryPoint.afterPropertiesSet();
        return entryPoint;
    }

    /**
     * Reads the CSRF token on every request, so that its cookie is written at once: Spring Security defers the
     * token until something asks for it, and a page of static HTML never does, which would leave the dashboard's
     * first write without a token to send.
     */
    static final class CsrfCookieFilter extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
            if (token != null) {
                token.getToken();
            }
            chain.doFilter(request, response);
        }
    }
}
