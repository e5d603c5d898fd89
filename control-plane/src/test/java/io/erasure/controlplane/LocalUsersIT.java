package io.erasure.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * Issue 19: the local users of {@code erasure.access.users} keep the password encoding they were configured with.
 * Spring Security re-hashes a {@code {noop}} password with bcrypt on the user's first login when the user store can
 * update passwords, and from then on every HTTP Basic request of that user paid a bcrypt check (about 0.1 CPU-second on
 * the local platform): a client polling a run five times a second kept half a core of the control plane busy.
 */
class LocalUsersIT extends ControlPlaneTestSupport {

    @Autowired
    UserDetailsService users;

    @Test
    void aNoopPasswordIsStillNoopAfterItsUserLoggedIn() {
        for (int i = 0; i < 3; i++) {
            as("viewer")
                    .get()
                    .uri("/api/runs?limit=1")
                    .exchange()
                    .expectStatus()
                    .isOk();
        }

        assertThat(users.loadUserByUsername("viewer").getPassword())
                .as("the password as configured, not re-hashed at login")
                .isEqualTo("{noop}viewer");
        // and a wrong password is still refused
        RestTestClient.bindToServer()
                .baseUrl("http://localhost:" + port)
                .defaultHeaders(h -> h.setBasicAuth("viewer", "wrong"))
                .build()
                .get()
                .uri("/api/runs?limit=1")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }
}
