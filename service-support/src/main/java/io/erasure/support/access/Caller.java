package io.erasure.support.access;

import java.util.Arrays;
import java.util.Set;
import org.springframework.security.access.AccessDeniedException;

/**
 * The authenticated caller of the API: a name for the actions log, roles, and the team whose
 * datasets an OWNER may change (null for callers without a team).
 */
public record Caller(String name, Set<Role> roles, String team) {

    public Caller {
        roles = Set.copyOf(roles);
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }

    public boolean ownsTeam(String ownerTeam) {
        return has(Role.OWNER) && team != null && team.equals(ownerTeam);
    }

    /** Refuses (403) unless the caller has one of {@code roles}; {@code what} names the action in the message. */
    public void requireAny(String what, Role... allowed) {
        for (Role role : allowed) {
            if (has(role)) {
                return;
            }
        }
        throw new AccessDeniedException(
                what + " needs one of the roles " + Arrays.toString(allowed) + "; '" + name + "' has " + roles);
    }
}
