package io.erasure.support.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bounded, strictly read input on every servlet service: bodies over {@code erasure.http.max-request-body}
 * (default 1MB) get 413 ({@link RequestBodyLimit}), request JSON with unknown fields or numbers that do not fit is
 * refused ({@link StrictRequestJson}), and every such refusal names the field and what it accepts
 * ({@link RequestBodyErrors}).
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({DispatcherServlet.class, JsonMapper.class, ServerHttpMessageConvertersCustomizer.class})
@EnableConfigurationProperties(RequestLimitsProperties.class)
public class RequestInputAutoConfiguration {

    /** Early, before Spring Security and before anything that could read a body (a form filter). */
    static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

    @Bean
    RequestBodyLimit requestBodyLimit(RequestLimitsProperties properties) {
        return new RequestBodyLimit(properties);
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimit> requestBodyLimitRegistration(RequestBodyLimit limit) {
        FilterRegistrationBean<RequestBodyLimit> registration = new FilterRegistrationBean<>(limit);
        registration.setOrder(FILTER_ORDER);
        return registration;
    }

    // after Boot's JSON converter (order 0), which it replaces
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    ServerHttpMessageConvertersCustomizer strictRequestJson(JsonMapper mapper) {
        return builder -> builder.withJsonConverter(new StrictRequestJson(mapper));
    }

    @Bean
    RequestBodyErrors requestBodyErrors(RequestBodyLimit limit) {
        return new RequestBodyErrors(limit);
    }
}
