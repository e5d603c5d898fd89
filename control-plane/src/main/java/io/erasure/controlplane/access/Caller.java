package io.erasure.controlplane.access;

import java.util.Set;

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
}
