package io.erasure.support.json;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/** Builds every service's {@link JsonMapper} with {@link PlatformJson}'s settings: numbers are read exactly. */
@AutoConfiguration(beforeName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({JsonMapper.class, JsonMapperBuilderCustomizer.class})
public class PlatformJsonAutoConfiguration {

    @Bean
    JsonMapperBuilderCustomizer platformJson() {
        return PlatformJson::configure;
    }
}
