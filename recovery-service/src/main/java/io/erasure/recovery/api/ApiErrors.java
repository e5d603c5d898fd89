package io.erasure.recovery.api;

import io.erasure.recovery.restore.FrozenSpecGuard;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Refusals as RFC 9457 problem details. An unreadable or invalid body is answered before this by service-support's
 * {@link io.erasure.support.web.RequestBodyErrors}, with the record's own message or the field and what it accepts.
 */
@RestControllerAdvice
public class ApiErrors {

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail invalid(IllegalArgumentException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /** A request whose spec is not the one frozen in the deletion log, or with nothing frozen to act under. */
    @ExceptionHandler({FrozenSpecGuard.SpecMismatch.class, FrozenSpecGuard.NoFrozenSpec.class})
    ProblemDetail notFrozen(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(AccessDeniedException.class)
    ProblemDetail denied(AccessDeniedException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, e.getMessage());
    }
}
