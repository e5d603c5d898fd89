package io.erasure.support.access;

import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Local users for HTTP Basic ({@code erasure.access.users}); passwords in Spring's
 * {@code {id}encoded} form, e.g. {@code {bcrypt}...}, or {@code {noop}...} on a laptop.
 */
@ConfigurationProperties("erasure.access")
public record AccessProperties(List<LocalUser> users) {

    public AccessProperties {
        users = users == null ? List.of() : List.copyOf(users);
    }

    public record LocalUser(String name, String password, Set<Role> roles, String team) {
        public LocalUser {
            if (name == null || name.isBlank() || password == null || password.isBlank()) {
                throw new IllegalArgumentException("erasure.access.users[] needs a name and a password");
            }
            roles = roles == null ? Set.of() : Set.copyOf(roles);
        }
    }
}
