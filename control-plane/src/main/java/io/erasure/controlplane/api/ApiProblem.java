package io.erasure.controlplane.api;

import org.springframework.http.HttpStatus;

/** A refusal the caller can act on: the status, and a message that names the field and the fix. */
public class ApiProblem extends RuntimeException {

    private final HttpStatus status;

    public ApiProblem(HttpStatus status, String message) {
        super(message);
        this.status = status;
    }

    public HttpStatus status() {
        return status;
    }

    public static ApiProblem notFound(String what) {
        return new ApiProblem(HttpStatus.NOT_FOUND, what + " does not exist");
    }

    public static ApiProblem conflict(String message) {
        return new ApiProblem(HttpStatus.CONFLICT, message);
    }

    public static ApiProblem forbidden(String message) {
        return new ApiProblem(HttpStatus.FORBIDDEN, message);
    }

    public static ApiProblem badRequest(String message) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, message);
    }

    /** Well-formed, but it does not fit what it names (a live table, a column). */
    public static ApiProblem unprocessable(String message) {
        return new ApiProblem(HttpStatus.UNPROCESSABLE_CONTENT, message);
    }

    /** Something this answer depends on cannot be reached now: the same request may succeed later. */
    public static ApiProblem unavailable(String message) {
        return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, message);
    }
}
