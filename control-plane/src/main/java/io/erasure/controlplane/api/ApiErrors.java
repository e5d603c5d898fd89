package io.erasure.controlplane.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

/**
 * Turns refusals into RFC 9457 problem details. A request body that fails a record's validation
 * (thrown from its compact constructor while Jackson builds it) becomes a 400 with that message,
 * which names the field and the fix.
 */
@RestControllerAdvice
public class ApiErrors {

    @ExceptionHandler(ApiProblem.class)
    ProblemDetail problem(ApiProblem problem) {
        return ProblemDetail.forStatusAndDetail(problem.status(), problem.getMessage());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadable(HttpMessageNotReadableException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, invalidBodyMessage(e));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail invalid(IllegalArgumentException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(AuthorizationDeniedException.class)
    ProblemDetail denied(AuthorizationDeniedException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, "your roles do not allow this: " + e.getMessage());
    }

    /**
     * The deepest IllegalArgumentException says what is wrong; otherwise Jackson's own message, with the field it
     * could not read (a value of the wrong form, such as a duration that is not ISO-8601).
     */
    static String invalidBodyMessage(Throwable e) {
        Throwable cause = e;
        String best = null;
        String field = null;
        while (cause != null) {
            if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
                best = cause.getMessage();
            }
            if (field == null && cause instanceof JacksonException jackson && !jackson.getPath().isEmpty()) {
                field = fieldOf(jackson);
            }
            cause = cause.getCause() == cause ? null : cause.getCause();
        }
        if (best != null) {
            return best;
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? String.valueOf(e.getMessage()) : root.getMessage();
        // Jackson appends the source location; the first line is what the caller needs
        return "request body is invalid" + (field == null ? "" : " at " + field) + ": "
                + message.lines().findFirst().orElse(message);
    }

    /** {@code copies[0].target}: the path of the value Jackson could not read. */
    private static String fieldOf(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? null : path.toString();
    }
}
