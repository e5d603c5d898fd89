package io.erasure.support.access;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.StringUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses (403) a state-changing call (any method but GET, HEAD, OPTIONS, TRACE) that carries HTTP Basic
 * credentials without the header {@value #HEADER} (any value). A browser that has cached a Basic login
 * sends it with every request to the service, also with a form or a simple fetch that another site
 * triggers; it cannot add a custom header to such a request without a CORS preflight, which
 * {@link CrossOriginProperties} answers only for the origins it names. So the header proves the call comes
 * from a page allowed to make it (the dashboard) or from a client that is no browser.
 *
 * <p>Bearer tokens (JWT) need no header: a browser never sends them on its own. Runs before authentication, so
 * the refusal says nothing about the credentials. The platform has no sessions and no cookies, so this replaces
 * Spring Security's CSRF tokens.
 */
public final class CrossSiteWriteGuard extends OncePerRequestFilter {

    /** The header every client sends with a write authenticated by HTTP Basic, e.g. {@code X-Requested-By: erasure}. */
    public static final String HEADER = "X-Requested-By";

    static final String REFUSAL =
            "A request that changes something (POST, PUT, PATCH, DELETE) with HTTP Basic credentials"
                    + " must carry the header " + HEADER + " (any value, e.g. '" + HEADER
                    + ": erasure'): a browser cannot add it to"
                    + " a request another site makes it send, so a cached login cannot be used from there. Bearer"
                    + " tokens need no header.";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final String PROBLEM =
            "{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403,\"detail\":\"" + REFUSAL + "\"}";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (refuses(request)) {
            response.setStatus(HttpStatus.FORBIDDEN.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(PROBLEM);
            return;
        }
        chain.doFilter(request, response);
    }

    static boolean refuses(HttpServletRequest request) {
        if (SAFE_METHODS.contains(request.getMethod())) {
            return false;
        }
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        // the test Spring's BasicAuthenticationConverter uses to take a header for Basic credentials
        boolean basic = authorization != null && StringUtils.startsWithIgnoreCase(authorization.trim(), "Basic");
        return basic && !StringUtils.hasText(request.getHeader(HEADER));
    }
}
