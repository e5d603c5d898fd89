package io.erasure.controlplane.registry;

import io.erasure.controlplane.refusal.Refusal;
import io.erasure.model.dataset.DatasetSpec;
import java.net.http.HttpClient;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asks the deletion service whether a spec fits the live stores it names ({@code POST /api/dataset-checks}) before
 * the registry stores it: a table or column that does not exist, a counter table, a static column or a copy its adapter
 * cannot serve is refused at registration (422, every problem with its fix) instead of failing the nightly run. If
 * the check cannot be made, nothing is stored (503): a registration is never accepted on a guess.
 */
@Component
public class LiveStoreCheck {

    /** What the deletion service answers. */
    record Result(String dataset, List<Problem> problems) {}

    record Problem(String place, String problem) {}

    private final LiveCheckProperties properties;
    private final JsonMapper json;
    private final RestClient client;

    public LiveStoreCheck(LiveCheckProperties properties, JsonMapper json) {
        this.properties = properties;
        this.json = json;
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(properties.timeout()).build());
        requests.setReadTimeout(properties.timeout());
        this.client = RestClient.builder()
                .baseUrl(properties.url().toString())
                .requestFactory(requests)
                .defaultHeaders(h -> {
                    if (properties.enabled()) {
                        h.setBasicAuth(properties.username(), properties.password());
                    }
                })
                .build();
    }

    /** Refuses {@code spec} (422) if it does not fit the live stores, or (503) if that cannot be checked now. */
    public void require(DatasetSpec spec) {
        if (!properties.enabled()) {
            return;
        }
        Result result;
        try {
            // the platform's own mapper on both sides, so the spec reads back exactly as it is stored
            String answer = client.post()
                    .uri("/api/dataset-checks")
                    .contentType(MediaType.APPLICATION_JSON)
                    .header("X-Requested-By", "control-plane")
                    .body(json.writeValueAsString(spec))
                    .retrieve()
                    .body(String.class);
            result = answer == null ? null : json.readValue(answer, Result.class);
        } catch (RestClientResponseException e) {
            throw unavailable(
                    spec, "the deletion service answered " + e.getStatusCode().value());
        } catch (RestClientException | JacksonException e) {
            throw unavailable(
                    spec,
                    "the deletion service at " + properties.url() + " could not be reached (" + e.getMessage() + ")");
        }
        if (result == null || result.problems() == null) {
            throw unavailable(spec, "the deletion service answered without a result");
        }
        if (!result.problems().isEmpty()) {
            throw Refusal.unprocessable("dataset '" + spec.name() + "' does not fit the live"
                    + " stores it names, so nothing was stored: "
                    + result.problems().stream()
                            .map(p -> p.place() + ": " + p.problem())
                            .collect(Collectors.joining("; ")));
        }
    }

    private Refusal unavailable(DatasetSpec spec, String why) {
        return Refusal.unavailable("dataset '" + spec.name() + "' could not be checked against"
                + " the live stores (" + why
                + "), so nothing was stored; register it again once the deletion service"
                + " answers (erasure.registry.live-check)");
    }
}
