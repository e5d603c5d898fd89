package io.erasure.model.check;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a record component accepts, in words, e.g. {@code "an integer between 0 and 9"}. A record's constructor
 * says what is wrong with a value it receives; this says it for a value that never reaches the constructor because
 * it cannot even be converted to the component's type ({@code "high"} or {@code 1e30} for an {@code int}, a
 * duration that is not ISO-8601). The services' request-body errors quote it with the field's path
 * ({@code field 'limits.maxRows' must be an integer between 0 and …; got 1e30}); a component without it is
 * described by its type alone. Keep it in step with the constructor's check, best by building both from the same
 * constants.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Allowed {

    /** A noun phrase: what a valid value is ({@code "an ISO-8601 duration such as PT72H"}). */
    String value();
}
