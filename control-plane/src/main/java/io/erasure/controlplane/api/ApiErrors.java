package io.erasure.controlplane.api;

import io.erasure.controlplane.refusal.Refusal;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns refusals into RFC 9457 problem details. A request body that cannot be read, or that fails a record's
 * validation while Jackson builds it, is answered before this by service-support's
 * {@link io.erasure.support.web.RequestBodyErrors}: 400 naming the field and what it accepts, 413 over the size limit.
 */
@RestControllerAdvice
public class ApiErrors {

    @ExceptionHandler(Refusal.class)
    ProblemDetail refused(Refusal refusal) {
        return ProblemDetail.forStatusAndDetail(status(refusal.kind()), refusal.getMessage());
    }

    static HttpStatus status(Refusal.Kind kind) {
        return switch (kind) {
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case CONFLICT -> HttpStatus.CONFLICT;
            case FORBIDDEN -> HttpStatus.FORBIDDEN;
            case INVALID -> HttpStatus.BAD_REQUEST;
            case UNPROCESSABLE -> HttpStatus.UNPROCESSABLE_CONTENT;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail invalid(IllegalArgumentException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(AuthorizationDeniedException.class)
    ProblemDetail denied(AuthorizationDeniedException e) {
        return ProblemDetail.forStatusAndDetail(
                HttpStatus.FORBIDDEN, "your roles do not allow this: " + e.getMessage());
    }
}
