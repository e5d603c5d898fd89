package io.erasure.store.http;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.http.call.CallbackClient;
import io.erasure.store.http.call.OwnerAnswers;
import io.erasure.store.http.request.CallbackRequest;
import io.erasure.store.http.request.PayloadTemplate;
import io.erasure.store.http.request.SecretHeaders;
import io.erasure.store.http.target.TargetPolicy;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.store.spi.StoreException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A store the platform does not know, reached through its owner's endpoint ({@link CopyTarget.HttpCallback}):
 * one call per batch, whose answer is the outcome. The platform cannot read, condition or restore the owner's
 * data, and the capabilities say so:
 * <ul>
 *   <li>deletes are not conditioned on the cut-off by the platform ({@code cutoffConditioned} false): the batch's
 *       {@code {cutoffMicros}} is sent so that the owner can keep rows written after it, and such a store serves as
 *       a copy, deleted after its source row was deleted at the cut-off;</li>
 *   <li>{@link #readRows} cannot return the owner's rows; it returns, per key, the request that will be sent, so the
 *       deletion log records what was asked for;</li>
 *   <li>verification ({@link #checkLiveState}, the read-back after a delete) needs the callback's {@code checkUrl};
 *       without one it fails rather than report the data gone;</li>
 *   <li>nothing is restored ({@code restore} false): the owner's system must restore.</li>
 * </ul>
 * Every URL is checked against the connection's allow-list and address rules at {@link #checkDataset} and again
 * at each call, where the host is resolved once per connection and only checked addresses are connected to
 * ({@link TargetPolicy}). Thread-safe; one pooled HTTP client is shared by all calls.
 */
public final class HttpCallbackAdapter implements StoreAdapter {

    /** The one column of the rows {@link #readRows} returns: the request sent for the key. */
    public static final String REQUEST_COLUMN = "request";

    private final HttpCallbackSettings settings;
    private final TargetPolicy policy;
    private final SecretHeaders secrets;
    private final CallbackClient client;
    private final OwnerAnswers answers;
    private final Clock clock;

    public HttpCallbackAdapter(HttpCallbackSettings settings, TargetPolicy policy, CallbackClient client, Clock clock) {
        this.settings = settings;
        this.policy = policy;
        this.secrets = new SecretHeaders(settings);
        this.client = client;
        this.answers = new OwnerAnswers(secrets);
        this.clock = clock;
    }

    @Override
    public StoreCapabilities capabilities() {
        return StoreCapabilities.of(settings.maxBatch());
    }

    /**
     * Accepts an HTTP_CALLBACK dataset whose URL and check URL are allowed (host on the allow-list, only public
     * addresses or those operators allow), whose headers' secrets this connection defines, and whose key
     * columns are the callback's. Sends nothing to the owner.
     */
    @Override
    public void checkDataset(DatasetSpec spec) {
        if (spec.storeKind() != StoreKind.HTTP_CALLBACK) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' is in " + spec.storeKind() + "; connection '"
                    + settings.ref() + "' is an HTTP_CALLBACK connection");
        }
        CopyTarget.HttpCallback callback = CallbackRequest.callbackOf(spec);
        if (!spec.keyColumns().primaryKey().equals(callback.keyColumns())) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' has keyColumns "
                    + spec.keyColumns().primaryKey() + " but its callback sends " + callback.keyColumns()
                    + "; make them the same");
        }
        policy.check(CallbackRequest.URL_FIELD, callback.url());
        if (callback.checkUrl() != null) {
            policy.check(CallbackRequest.CHECK_URL_FIELD, callback.checkUrl());
        }
        CallbackClient.requireSendable(callback.headers());
        secrets.requireResolvable(callback.headers(), spec.ownerTeam());
    }

    /**
     * One row per key (the owner's rows cannot be read, so none is left out), whose single column
     * {@value #REQUEST_COLUMN} is the payload that asks the owner to delete that key. {@code {batchId}} and
     * {@code {cutoffMicros}} stay placeholders: the deletion record carries the batch id and cut-off itself.
     * No write time is known.
     */
    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        requireBatch(keys);
        CopyTarget.HttpCallback callback = CallbackRequest.callbackOf(spec);
        PayloadTemplate template = new PayloadTemplate(callback.payloadTemplate(), callback.keyColumns());
        List<LiveRow> rows = new ArrayList<>(keys.size());
        for (Map<String, Object> key : keys) {
            String request = template.render(spec.name(), null, null, List.of(key));
            rows.add(new LiveRow(key, List.of(ColumnValue.of(REQUEST_COLUMN, request)), null));
        }
        return rows;
    }

    /**
     * Asks the callback's {@code checkUrl} whether each key's data is still there; write times are unknown.
     *
     * @throws StoreException.Fatal if no {@code checkUrl} is registered: "absent" is never assumed
     */
    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        requireBatch(keys);
        CallbackRequest request = CallbackRequest.check(spec, keys);
        List<Boolean> present = answers.presence(request.target(), client.send(request), keys.size());
        List<LiveState> states = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            states.add(new LiveState(keys.get(i), present.get(i), null));
        }
        return states;
    }

    /**
     * One statement, the batch's call with its payload and headers (secrets as {@code secret:NAME}); every key
     * DELETE_ROW.
     */
    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        requireBatch(batch.keys());
        CallbackRequest request = CallbackRequest.delete(batch);
        List<DeletePlan.KeyDecision> decisions = batch.keys().stream()
                .map(key -> new DeletePlan.KeyDecision(key, DeletePlan.Action.DELETE_ROW))
                .toList();
        return new DeletePlan(batch, List.of(request.statement()), decisions);
    }

    /** Calls the owner once for the batch (with retries) and reports what the owner answers it did. */
    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        CallbackRequest request = CallbackRequest.delete(plan.batch());
        if (!plan.statements().equals(List.of(request.statement()))) {
            throw new IllegalArgumentException("this plan was not made by the HTTP-callback adapter for batch "
                    + plan.batch().batchId() + "; plan the batch again");
        }
        return answers.deleteOutcome(
                request.target(), client.send(request), plan.batch().keys().size());
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        throw new StoreException.Fatal("dataset '" + spec.name() + "' is behind an HTTP callback, which cannot restore:"
                + " the platform cannot write into the owner's store. The owner's system must restore the data; the"
                + " deletion log shows the requests that were sent");
    }

    /**
     * Idle (utilization 0, no parts): the owner's load cannot be measured. The owner pushes back with 429 or 503,
     * which are retried with backoff, and the deletion throttle backs off on the errors that remain.
     */
    @Override
    public LoadSignal loadSignal() {
        return LoadSignal.of(Map.of(), clock.instant());
    }

    /** Closes the HTTP client's pooled connections. */
    @Override
    public void close() {
        client.close();
    }

    private void requireBatch(List<Map<String, Object>> keys) {
        if (keys.size() > settings.maxBatch()) {
            throw new IllegalArgumentException(keys.size() + " keys in one call; connection '" + settings.ref()
                    + "' takes at most " + settings.maxBatch() + " (max-batch)");
        }
    }
}
