package io.erasure.validation.job;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import io.erasure.model.event.ValidationFailed;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A validation step that meets an outage is retried, not failed: a chaos trial with S3 away for 15 s failed both runs
 * as "validation failed: Unable to execute HTTP request ... Connection refused", and an operator had to trigger them
 * again.
 */
class RunCommandsListenerTest {

    private final RunEvents events = mock(RunEvents.class);
    private final RunCommandsListener listener = new RunCommandsListener(
            mock(ValidationJobs.class), events, JsonMapper.builder().build());

    @Test
    void anUnreachableS3IsRetriedAndFailsNothing() {
        SdkClientException down = SdkClientException.create(
                "Unable to execute HTTP request: Connect to 127.0.0.1:19000",
                new ConnectException("Connection refused"));
        assertThatThrownBy(() -> listener.run("run-1", "orders", () -> {
                    throw down;
                }))
                .isSameAs(down);
        verify(events, never()).send(any(), any());
    }

    @Test
    void aStepThatCannotSucceedFailsTheRun() {
        listener.run("run-1", "orders", () -> {
            throw new IllegalArgumentException("the final set holds a key of another dataset");
        });
        verify(events)
                .send(
                        eq("run-1"),
                        argThat(payload -> payload instanceof ValidationFailed failed
                                && failed.reason().contains("another dataset")));
    }
}
