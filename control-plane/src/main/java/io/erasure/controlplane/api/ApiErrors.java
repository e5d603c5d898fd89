package io.erasure.controlplane.api;

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

    @ExceptionHandler(ApiProblem.class)
    ProblemDetail problem(ApiProblem problem) {
        return ProblemDetail.forStatusAndDetail(problem.status(), problem.getMessage());
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
