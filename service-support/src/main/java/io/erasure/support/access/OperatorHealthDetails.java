package io.erasure.support.access;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.security.core.Authentication;

/**
 * Health components and details (which engine is down, its address, cluster id, bucket) only for an
 * {@link Role#OPERATOR}: anyone else, probes included, gets the status alone. It narrows what
 * {@code management.endpoint.health.show-details} / {@code show-components} allow, in every group, so a
 * service's {@code always} means "always, to operators".
 */
final class OperatorHealthDetails implements HealthEndpointGroupsPostProcessor {

    @Override
    public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
        Map<String, HealthEndpointGroup> named = new LinkedHashMap<>();
        for (String name : groups.getNames()) {
            named.put(name, new OperatorsOnly(groups.get(name)));
        }
        return HealthEndpointGroups.of(new OperatorsOnly(groups.getPrimary()), named);
    }

    static boolean isOperator(SecurityContext context) {
        return context.getPrincipal() instanceof Authentication authentication
                && authentication.isAuthenticated()
                && authentication.getAuthorities().stream()
                        .anyMatch(authority -> Role.OPERATOR.authority().equals(authority.getAuthority()));
    }

    private record OperatorsOnly(HealthEndpointGroup group) implements HealthEndpointGroup {

        @Override
        public boolean showComponents(SecurityContext context) {
            return isOperator(context) && group.showComponents(context);
        }

        @Override
        public boolean showDetails(SecurityContext context) {
            return isOperator(context) && group.showDetails(context);
        }

        @Override
        public boolean isMember(String name) {
            return group.isMember(name);
        }

        @Override
        public StatusAggregator getStatusAggregator() {
            return group.getStatusAggregator();
        }

        @Override
        public HttpCodeStatusMapper getHttpCodeStatusMapper() {
            return group.getHttpCodeStatusMapper();
        }

        @Override
        public AdditionalHealthEndpointPath getAdditionalPath() {
            return group.getAdditionalPath();
        }
    }
}
