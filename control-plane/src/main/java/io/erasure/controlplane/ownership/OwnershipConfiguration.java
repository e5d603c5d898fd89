package io.erasure.controlplane.ownership;

import io.erasure.controlplane.registry.LiveCheckProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({OwnershipProperties.class, LiveCheckProperties.class})
class OwnershipConfiguration {}
