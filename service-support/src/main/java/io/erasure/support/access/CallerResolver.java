package io.erasure.support.access;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;

/** Turns the current authentication (local user or JWT) into a {@link Caller}. */
public class CallerResolver {

    private final Map<String, AccessProperties.LocalUser> localUsers;

    public CallerResolver(AccessProperties properties) {
        this.localUsers = properties.users().stream()
                .collect(Collectors.toMap(AccessProperties.LocalUser::name, Function.identity()));
    }

    public Caller current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !authentication.isAuthenticated()) {
            throw new IllegalStateException("no authenticated caller");
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (GrantedAuthority authority : authentication.getAuthorities()) {
            for (Role role : Role.values()) {
                if (role.authority().equals(authority.getAuthority())) {
                    roles.add(role);
                }
            }
        }
        String team = null;
        if (authentication.getPrincipal() instanceof Jwt jwt) {
            team = jwt.getClaimAsString("team");
        } else if (localUsers.containsKey(authentication.getName())) {
            team = localUsers.get(authentication.getName()).team();
        }
        return new Caller(authentication.getName(), roles, team);
    }
}
