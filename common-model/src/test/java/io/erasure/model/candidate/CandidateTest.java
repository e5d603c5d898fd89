package io.erasure.model.candidate;

import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CandidateTest {

    @Test
    void jsonShapeIsTheCandidateFileLine() {
        Candidate candidate = new Candidate(key("customer_id", 42, "order_id", "o-9"), "42", 1_706_666_400_000_000L);
        String json = JSON.writeValueAsString(candidate);

        JsonNode expected = JSON.readTree("""
                {"key": {"customer_id": 42, "order_id": "o-9"}, "identifier": "42", "writeTimeMicros": 1706666400000000}
                """);
        assertThat(JSON.readTree(json)).isEqualTo(expected);
        assertThat(json).contains("{\"customer_id\":42,\"order_id\":\"o-9\"}");
        assertThat(JSON.readValue(json, Candidate.class)).isEqualTo(candidate);
    }

    @Test
    void writeTimeMayBeUnknown() {
        Candidate candidate = new Candidate(key("id", "a"), "c-1", null);
        assertThat(JSON.readValue(JSON.writeValueAsString(candidate), Candidate.class))
                .isEqualTo(candidate);
    }

    @Test
    void keyKeepsColumnOrderAndIsImmutable() {
        Candidate candidate = new Candidate(key("z", 1, "a", 2), "x", null);
        assertThat(candidate.key().keySet()).containsExactly("z", "a");
        assertThatThrownBy(() -> candidate.key().put("b", 3)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void requiresKeyAndIdentifier() {
        assertThatThrownBy(() -> new Candidate(null, "x", null)).hasMessage("candidate.key is required but was null");
        assertThatThrownBy(() -> new Candidate(key("id", 1), " ", null))
                .hasMessageStartingWith("candidate.identifier is required");
    }
}
