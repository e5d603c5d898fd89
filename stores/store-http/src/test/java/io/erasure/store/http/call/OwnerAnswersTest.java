package io.erasure.store.http.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.http.request.SecretHeaders;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OwnerAnswersTest {

    private final OwnerAnswers answers =
            new OwnerAnswers(new SecretHeaders(HttpCallbackSettings.from(new StoreConnection(
                    "owners",
                    StoreKind.HTTP_CALLBACK,
                    Map.of("allowed-hosts", "owner.example.com", "secret.token", "tok-42-secret")))));

    @Test
    void countsAreTakenAsTheOwnerGivesThem() {
        assertThat(answers.deleteOutcome(
                        "POST u", "{\"deleted\": 2, \"absent\": 1, \"skippedNewer\": 1, \"note\": \"x\"}", 4))
                .isEqualTo(new DeleteOutcome(2, 1, 1, 0, 1));
    }

    @Test
    void missingCountsMeanEveryOtherKeyWasDeleted() {
        assertThat(answers.deleteOutcome("POST u", "", 3)).isEqualTo(new DeleteOutcome(3, 0, 0, 0, 1));
        assertThat(answers.deleteOutcome("POST u", "{}", 3)).isEqualTo(new DeleteOutcome(3, 0, 0, 0, 1));
        assertThat(answers.deleteOutcome("POST u", "{\"absent\": 1}", 3)).isEqualTo(new DeleteOutcome(2, 0, 1, 0, 1));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "done",
                "[1, 2]",
                "{\"deleted\": -1}",
                "{\"deleted\": 1.5}",
                "{\"deleted\": \"3\"}",
                "{\"deleted\": 3, \"absent\": 1}",
                "{\"absent\": 4}",
                "{\"deleted\": 1} trailing"
            })
    void anAnswerThatCannotBeReadFailsSayingWhatIsExpected(String body) {
        assertThatThrownBy(() -> answers.deleteOutcome("POST https://owner.example.com/d", body, 3))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("POST https://owner.example.com/d")
                .hasMessageContaining(OwnerAnswers.DELETE_ANSWER);
    }

    @Test
    void presenceIsOneBooleanPerKeyInOrder() {
        assertThat(answers.presence("POST c", "{\"present\": [true, false, true]}", 3))
                .containsExactly(true, false, true);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"{\"present\": [true, false]}", "{\"present\": [true, 1, false]}", "{\"gone\": []}", "", "yes"})
    void aPresenceAnswerThatCannotBeReadFails(String body) {
        assertThatThrownBy(() -> answers.presence("POST c", body, 3))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining(OwnerAnswers.CHECK_ANSWER);
    }

    @Test
    void anEchoedSecretIsNotShown() {
        assertThatThrownBy(() -> answers.deleteOutcome("POST u", "bad token tok-42-secret", 1))
                .hasMessageNotContaining("tok-42-secret")
                .hasMessageContaining("secret:token");
    }
}
