package io.erasure.support.web;

import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * The services' JSON converter, with request bodies read strictly: a field the request type does not have is
 * refused (a misspelt {@code maxRow} would otherwise leave the limit unset without a word, and an unknown 5 MB
 * field would be accepted and dropped), and a number with a fraction is not cut to fit an integer field
 * ({@code "priority": 5.5} is refused, not read as 5). {@link RequestBodyErrors} says which field and what it accepts.
 *
 * <p>Only here, on what a caller sends. The same {@link JsonMapper} keeps Jackson's tolerance where the platform
 * reads its own documents: events and tasks on Kafka, specs frozen into runs and stored in PostgreSQL, records in
 * the log. Those are written by other versions of the services during a rolling upgrade, and a consumer that
 * refused a field added by a newer producer would stop its partition. A request's author sees the refusal and fixes
 * it; a consumer cannot. Responses are written by the same mapper, unchanged.
 */
public class StrictRequestJson extends JacksonJsonHttpMessageConverter {

    public StrictRequestJson(JsonMapper mapper) {
        super(mapper);
    }

    @Override
    protected ObjectReader customizeReader(ObjectReader reader, JavaType javaType) {
        return super.customizeReader(reader, javaType)
                .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .without(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    }
}
