package io.erasure.store.http.call;

import io.erasure.store.http.request.SecretHeaders;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the owner's answers. The owner's answer is the outcome: the platform cannot see the owner's data, so it
 * reports what the owner says it did, and refuses an answer it cannot read rather than guessing.
 */
public final class OwnerAnswers {

    public static final String DELETE_ANSWER = "{\"deleted\": n, \"absent\": m, \"skippedNewer\": k}";
    public static final String CHECK_ANSWER = "{\"present\": [true, false, ...]}";

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final int EXCERPT_CHARS = 200;

    private final SecretHeaders secrets;

    public OwnerAnswers(SecretHeaders secrets) {
        this.secrets = secrets;
    }

    /**
     * The outcome of a delete call of {@code keys} keys from its 2xx body {@value #DELETE_ANSWER}. Every count
     * is optional: a missing {@code absent} or {@code skippedNewer} is 0, a missing {@code deleted} is every key
     * not counted otherwise; an empty body (e.g. 204 No Content) means every key was deleted.
     *
     * @throws StoreException.Fatal saying what is expected, if the body is not such an object or its counts
     *                              exceed the batch
     */
    public DeleteOutcome deleteOutcome(String target, String body, int keys) {
        if (body == null || body.isBlank()) {
            return new DeleteOutcome(keys, 0, 0, 0, 1);
        }
        JsonNode answer = objectOf(target, body, DELETE_ANSWER);
        int absent = count(target, body, answer, "absent");
        int skippedNewer = count(target, body, answer, "skippedNewer");
        int deleted =
                answer.hasNonNull("deleted") ? count(target, body, answer, "deleted") : keys - absent - skippedNewer;
        if (deleted < 0 || (long) deleted + absent + skippedNewer > keys) {
            throw unreadable(
                    target, body, DELETE_ANSWER, "its counts add up to more than the batch's " + keys + " keys");
        }
        return new DeleteOutcome(deleted, skippedNewer, absent, 0, 1);
    }

    /**
     * Per key, in order, whether the owner still holds its data, from {@value #CHECK_ANSWER}.
     *
     * @throws StoreException.Fatal saying what is expected, if the body is not such an object with one boolean per key
     */
    public List<Boolean> presence(String target, String body, int keys) {
        JsonNode answer = objectOf(target, body, CHECK_ANSWER);
        JsonNode present = answer.get("present");
        if (present == null || !present.isArray() || present.size() != keys) {
            throw unreadable(
                    target,
                    body,
                    CHECK_ANSWER,
                    "'present' must be an array of " + keys + " booleans, one per key in order");
        }
        List<Boolean> states = new ArrayList<>(keys);
        for (JsonNode value : present) {
            if (!value.isBoolean()) {
                throw unreadable(target, body, CHECK_ANSWER, "'present' holds " + value + ", not true or false");
            }
            states.add(value.booleanValue());
        }
        return states;
    }

    private JsonNode objectOf(String target, String body, String expected) {
        JsonNode node;
        try {
            node = body == null ? null : JSON.readTree(body);
        } catch (JacksonException e) {
            throw unreadable(target, body, expected, "it is not JSON");
        }
        if (node == null || !node.isObject()) {
            throw unreadable(target, body, expected, "it is not a JSON object");
        }
        return node;
    }

    private int count(String target, String body, JsonNode answer, String field) {
        JsonNode value = answer.get(field);
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
            throw unreadable(target, body, DELETE_ANSWER, "'" + field + "' is " + value + ", not a count >= 0");
        }
        return value.intValue();
    }

    private StoreException.Fatal unreadable(String target, String body, String expected, String why) {
        // redacted before cutting, in case the owner echoed a credential back
        String shown = body == null ? "" : secrets.redact(body);
        String excerpt = shown.length() > EXCERPT_CHARS ? shown.substring(0, EXCERPT_CHARS) + "..." : shown;
        return new StoreException.Fatal(target + " answered '" + excerpt + "', which the platform cannot read: " + why
                + ". The owner's endpoint must answer " + expected + " (JSON)");
    }
}
