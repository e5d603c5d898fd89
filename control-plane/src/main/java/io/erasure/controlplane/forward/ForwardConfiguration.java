package io.erasure.controlplane.forward;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ForwardProperties.class)
class ForwardConfiguration {}
