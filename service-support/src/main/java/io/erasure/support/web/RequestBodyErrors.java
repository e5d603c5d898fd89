package io.erasure.support.web;

import io.erasure.model.check.Require;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;

/**
 * Every service's answer to a request it cannot read, ahead of the services' own {@code ApiErrors}: a body over
 * the limit is 413 ({@link RequestBodyLimit}), a multipart upload too; any other unreadable body is 400 saying which
 * field is wrong and what it accepts ({@link UnreadableBody}), with the field's path as the problem's {@code field}; a
 * query or path parameter of the wrong type is 400 naming the parameter and its type.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestBodyErrors {

    private final String tooLarge;

    public RequestBodyErrors(RequestBodyLimit limit) {
        this.tooLarge = limit.refusal();
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadable(HttpMessageNotReadableException e) {
        if (RequestBodyLimit.TooLarge.in(e)) {
            return ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, tooLarge);
        }
        UnreadableBody.Problem problem = UnreadableBody.describe(e);
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, problem.detail());
        if (problem.field() != null) {
            detail.setProperty("field", problem.field());
        }
        return detail;
    }

    /** A multipart upload over the limit ({@link RequestLimitDefaults} bounds the resolver by it): the same 413. */
    @ExceptionHandler(MaxUploadSizeExceededException.class)
    ProblemDetail uploadTooLarge(MaxUploadSizeExceededException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, tooLarge);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail mismatch(MethodArgumentTypeMismatchException e) {
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(
                HttpStatus.BAD_REQUEST,
                "parameter '" + e.getName() + "' must be " + UnreadableBody.describeType(e.getRequiredType()) + "; got "
                        + Require.echo(e.getValue()));
        detail.setProperty("field", e.getName());
        return detail;
    }
}
