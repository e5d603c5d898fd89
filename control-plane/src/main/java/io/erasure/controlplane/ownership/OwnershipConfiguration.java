package io.erasure.controlplane.ownership;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OwnershipProperties.class)
class OwnershipConfiguration {}
