package io.erasure.controlplane.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.ControlSignal;
import io.erasure.model.event.EventEnvelope;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class KillSwitchIT extends ControlPlaneTestSupport {

    @Test
    void anOperatorStopsADatasetAndTheSignalIsPublishedOnTheControlTopic() {
        DatasetSpec spec = registerDataset();

        as("owner")
                .put()
                .uri("/api/kill-switches/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"active\": true, \"reason\": \"incident 42\"}")
                .exchange()
                .expectStatus()
                .isForbidden();
        as("operator")
                .put()
                .uri("/api/kill-switches/" + spec.name())
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"active\": true, \"reason\": \"incident 42\"}")
                .exchange()
                .expectStatus()
                .isOk();

        List<EventEnvelope> signals = published(
                Topics.CONTROL,
                e -> e.payload() instanceof ControlSignal s && s.scope().equals(spec.name()),
                1);
        assertThat(signals).singleElement().satisfies(e -> {
            ControlSignal signal = (ControlSignal) e.payload();
            assertThat(signal.active()).isTrue();
            assertThat(signal.actor()).isEqualTo("operator");
            assertThat(signal.reason()).isEqualTo("incident 42");
        });
        assertThat(actionsOf("kill-switch:" + spec.name()))
                .extracting(a -> a.get("action"))
                .containsExactly("kill-switch.on");
    }

    @Test
    void theGlobalSwitchNeedsAReasonAndUnknownScopesAreRefused() {
        as("operator")
                .put()
                .uri("/api/kill-switches/global")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"active\": true}")
                .exchange()
                .expectStatus()
                .isBadRequest();
        as("operator")
                .put()
                .uri("/api/kill-switches/no-such-dataset")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"active\": true, \"reason\": \"x\"}")
                .exchange()
                .expectStatus()
                .isNotFound();
        as("operator")
                .put()
                .uri("/api/kill-switches/global")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"active\": false, \"reason\": \"all clear\"}")
                .exchange()
                .expectStatus()
                .isOk();

        List<?> switches = as("viewer")
                .get()
                .uri("/api/kill-switches")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(List.class)
                .getResponseBody();
        assertThat(switches)
                .anySatisfy(s -> assertThat(((Map<?, ?>) s).get("scope")).isEqualTo("global"));
    }
}
