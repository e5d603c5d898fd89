package io.erasure.recovery.api;

import io.erasure.recovery.restore.FrozenSpecGuard;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Refusals as RFC 9457 problem details; an invalid body answers with the record's own message (field and fix). */
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

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadable(HttpMessageNotReadableException e) {
        Throwable cause = e;
        String best = null;
        while (cause != null) {
            if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
                best = cause.getMessage();
            }
            cause = cause.getCause() == cause ? null : cause.getCause();
        }
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, best != null ? best : "request body is invalid: "
                + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }

    @ExceptionHandler(AccessDeniedException.class)
    ProblemDetail denied(AccessDeniedException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, e.getMessage());
    }
}
