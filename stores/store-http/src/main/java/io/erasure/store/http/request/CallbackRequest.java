package io.erasure.store.http.request;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One request to the owner's endpoint as the spec describes it: headers still hold their {@code secret:NAME}
 * references (resolved only when sent), so the request can be shown in plans and messages as it is.
 *
 * @param field          the spec field the URL comes from ({@code copy.httpCallback.url} or {@code .checkUrl})
 * @param idempotencyKey sent as {@value #IDEMPOTENCY_KEY} with every attempt; null for read-only requests
 * @param ownerTeam      the spec's owner team: the only team whose secrets its headers may refer to
 */
public record CallbackRequest(
        String field,
        String method,
        String url,
        Map<String, String> headers,
        String body,
        String idempotencyKey,
        String ownerTeam) {

    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    public static final String URL_FIELD = "copy.httpCallback.url";
    public static final String CHECK_URL_FIELD = "copy.httpCallback.checkUrl";

    public CallbackRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(url, "url");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
    }

    /** The delete call of a batch: the rendered payload, with the batch id as idempotency key. */
    public static CallbackRequest delete(DeleteBatch batch) {
        CopyTarget.HttpCallback callback = callbackOf(batch.spec());
        String body = new PayloadTemplate(callback.payloadTemplate(), callback.keyColumns())
                .render(batch.spec().name(), batch.batchId(), batch.cutoff().micros(), batch.keys());
        return new CallbackRequest(
                URL_FIELD,
                callback.method(),
                callback.url(),
                callback.headers(),
                body,
                batch.batchId(),
                batch.spec().ownerTeam());
    }

    /**
     * The verify-mode question for {@code keys}: {@code POST checkUrl} with {@code {"dataset": ..., "keys": [...]}}.
     *
     * @throws StoreException.Fatal if the callback has no check URL: without one the platform cannot tell
     *                              whether the data is gone, and "absent" must not be assumed
     */
    public static CallbackRequest check(DatasetSpec spec, List<Map<String, Object>> keys) {
        CopyTarget.HttpCallback callback = callbackOf(spec);
        if (callback.checkUrl() == null) {
            throw new StoreException.Fatal("no checkUrl registered; verify mode needs one: dataset '" + spec.name()
                    + "' calls " + callback.url() + " but cannot ask whether its data is gone. Register"
                    + " copy.httpCallback.checkUrl, answering {\"present\": [true, false, ...]} for {\"dataset\": ...,"
                    + " \"keys\": [...]}");
        }
        Map<String, Object> question = new LinkedHashMap<>();
        question.put("dataset", spec.name());
        question.put("keys", new PayloadTemplate(callback.payloadTemplate(), callback.keyColumns()).keyObjects(keys));
        return new CallbackRequest(
                CHECK_URL_FIELD,
                "POST",
                callback.checkUrl(),
                callback.headers(),
                PayloadTemplate.JSON.writeValueAsString(question),
                null,
                spec.ownerTeam());
    }

    /** The spec's callback target, or Fatal if the dataset is not an HTTP callback. */
    public static CopyTarget.HttpCallback callbackOf(DatasetSpec spec) {
        if (spec.target() instanceof CopyTarget.HttpCallback callback) {
            return callback;
        }
        throw new StoreException.Fatal("dataset '" + spec.name() + "' is in " + spec.storeKind() + " with target "
                + (spec.target() == null ? "none" : spec.target().getClass().getSimpleName())
                + "; the HTTP-callback adapter serves only HTTP_CALLBACK datasets whose target is an httpCallback");
    }

    /** The headers as they are shown: secrets as {@code secret:NAME}, plus the idempotency key. */
    public Map<String, String> shownHeaders() {
        Map<String, String> shown = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        shown.putAll(headers);
        if (idempotencyKey != null) {
            shown.put(IDEMPOTENCY_KEY, idempotencyKey);
        }
        return shown;
    }

    /** {@code <METHOD> <url>} with the body and the headers (secrets by reference), as a dry-run shows it. */
    public PlannedStatement statement() {
        return new PlannedStatement(method + " " + url, List.of(body, "headers " + shownHeaders()));
    }

    /** {@code <METHOD> <url>}, for messages. */
    public String target() {
        return method + " " + url;
    }
}
