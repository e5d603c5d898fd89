package io.erasure.controlplane.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

class ApiErrorsTest {

    private final ApiErrors errors = new ApiErrors();

    @Test
    void eachRefusalIsAnsweredWithItsStatusAndItsMessage() {
        assertAnswer(Refusal.notFound("run 7"), HttpStatus.NOT_FOUND, "run 7 does not exist");
        assertAnswer(Refusal.conflict("already approved"), HttpStatus.CONFLICT, "already approved");
        assertAnswer(Refusal.forbidden("not your team"), HttpStatus.FORBIDDEN, "not your team");
        assertAnswer(Refusal.badRequest("reason is required"), HttpStatus.BAD_REQUEST, "reason is required");
        assertAnswer(Refusal.unprocessable("no column x"), HttpStatus.UNPROCESSABLE_CONTENT, "no column x");
        assertAnswer(Refusal.unavailable("store down"), HttpStatus.SERVICE_UNAVAILABLE, "store down");
    }

    private void assertAnswer(Refusal refusal, HttpStatus status, String detail) {
        ProblemDetail problem = errors.refused(refusal);
        assertThat(problem.getStatus()).isEqualTo(status.value());
        assertThat(problem.getDetail()).isEqualTo(detail);
    }
}
