package io.erasure.controlplane.dashboard;

import io.erasure.support.access.AccessRules;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DashboardProperties.class)
class DashboardConfiguration {

    /**
     * The page and its scripts load before anyone signs in (the sign-in form is part of the page); every
     * call for data goes to {@code /api/**} with the user's credentials.
     */
    @Bean
    AccessRules dashboardPage() {
        return requests -> requests.requestMatchers(HttpMethod.GET, "/dashboard", "/dashboard/", "/dashboard/**")
                .permitAll();
    }
}
