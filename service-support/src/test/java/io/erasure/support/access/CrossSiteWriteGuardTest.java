package io.erasure.support.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class CrossSiteWriteGuardTest {

    private static final String BASIC =
            "Basic " + Base64.getEncoder().encodeToString("operator:operator".getBytes(StandardCharsets.UTF_8));

    @Test
    void aWriteWithBasicCredentialsAndNoHeaderIsRefusedNamingTheHeader() throws Exception {
        for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
            MockHttpServletResponse response = filter(request(method, BASIC, null));

            assertThat(response.getStatus()).as(method).isEqualTo(403);
            assertThat(response.getContentType()).startsWith("application/problem+json");
            assertThat(response.getContentAsString()).contains("X-Requested-By").contains("\"status\":403");
        }
        // the scheme is case-insensitive, as for Spring's own Basic authentication
        assertThat(filter(request("POST", "basic " + BASIC.substring(6), null)).getStatus())
                .isEqualTo(403);
        assertThat(filter(request("POST", BASIC, " ")).getStatus())
                .as("a blank header")
                .isEqualTo(403);
    }

    @Test
    void theHeaderReadsAndBearerTokensPass() throws Exception {
        assertPasses(request("POST", BASIC, "erasure"));
        assertPasses(request("DELETE", BASIC, "any value"));
        assertPasses(request("GET", BASIC, null));
        assertPasses(request("HEAD", BASIC, null));
        assertPasses(request("OPTIONS", null, null));
        assertPasses(request("POST", "Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln", null));
        // no credentials: authentication answers 401 after this filter
        assertPasses(request("POST", null, null));
    }

    private static void assertPasses(MockHttpServletRequest request) throws Exception {
        MockFilterChain chain = new MockFilterChain();
        MockHttpServletResponse response = new MockHttpServletResponse();
        new CrossSiteWriteGuard().doFilter(request, response, chain);
        assertThat(chain.getRequest())
                .as(request.getMethod() + " " + request.getHeader(HttpHeaders.AUTHORIZATION))
                .isSameAs(request);
        assertThat(response.getStatus()).isEqualTo(200);
    }

    private static MockHttpServletResponse filter(MockHttpServletRequest request) throws Exception {
        MockFilterChain chain = new MockFilterChain();
        MockHttpServletResponse response = new MockHttpServletResponse();
        new CrossSiteWriteGuard().doFilter(request, response, chain);
        assertThat(chain.getRequest()).as("the refused request goes no further").isNull();
        return response;
    }

    private static MockHttpServletRequest request(String method, String authorization, String requestedBy) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, "/api/runs/run-1/approve");
        if (authorization != null) {
            request.addHeader(HttpHeaders.AUTHORIZATION, authorization);
        }
        if (requestedBy != null) {
            request.addHeader(CrossSiteWriteGuard.HEADER, requestedBy);
        }
        return request;
    }
}
