package io.erasure.store.redis.restore;

import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.redis.Pipeline;
import io.erasure.store.redis.Pipeline.Reply;
import io.erasure.store.redis.RedisFailures;
import io.erasure.store.redis.keys.DatasetKeys;
import io.erasure.store.redis.read.ValueReader;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreException;
import io.lettuce.core.RedisFuture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Puts deleted keys back from their deletion records, never over newer data.
 *
 * <ol>
 *   <li>Each key gets its remaining TTL: the TTL it had when read minus the time since {@code deletedAt}. A key
 *       whose TTL ran out meanwhile is {@link Status#EXPIRED} and is not written.</li>
 *   <li>{@code RESTORE key ttl payload} without {@code REPLACE}: Redis itself refuses a key that exists
 *       ({@code BUSYKEY}), atomically, so a value written after the delete is never overwritten and there is no
 *       window between a check and the write. Such a key is {@link Status#NEWER_DATA_KEPT}; if its value is the
 *       record's own, the detail says "already restored".</li>
 *   <li>All records of a call go in one pipeline.</li>
 * </ol>
 */
public final class ValueRestorer {

    private final Pipeline pipeline;
    private final Clock clock;

    public ValueRestorer(Pipeline pipeline, Clock clock) {
        this.pipeline = pipeline;
        this.clock = clock;
    }

    public RestoreOutcome restore(DatasetKeys dataset, List<DeletionRecord> records) {
        String name = dataset.spec().name();
        for (DeletionRecord record : records) {
            if (!record.dataset().equals(name)) {
                throw new IllegalArgumentException("record " + record.recordId() + " belongs to dataset '"
                        + record.dataset() + "', not '" + name + "'; restore each dataset's records with its own spec");
            }
            dataset.spec()
                    .keyColumns()
                    .requireFullKey("record " + record.recordId() + " primaryKey", record.primaryKey());
        }
        Instant now = clock.instant();
        RecordOutcome[] outcomes = new RecordOutcome[records.size()];
        List<Integer> sent = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        List<RedisFuture<String>> restores = new ArrayList<>();
        Pipeline.Batch batch = pipeline.batch();
        for (int i = 0; i < records.size(); i++) {
            DeletionRecord record = records.get(i);
            ColumnValue value = record.columns().stream()
                    .filter(c -> c.name().equals(ValueReader.VALUE))
                    .findFirst()
                    .orElse(null);
            if (record.retainedRef() != null) {
                outcomes[i] = outcome(
                        record,
                        Status.FAILED,
                        "the key's value is in S3 at " + record.retainedRef()
                                + "; the recovery service fetches it and restores the full record");
                continue;
            }
            if (value == null || !(value.value() instanceof String base64)) {
                outcomes[i] = outcome(
                        record,
                        Status.FAILED,
                        "the record has no '" + ValueReader.VALUE
                                + "' column with a DUMP payload; it was not written by the Redis adapter");
                continue;
            }
            long ttlMillis = remainingTtlMillis(value.ttlSeconds(), record.deletedAt(), now);
            if (ttlMillis < 0) {
                outcomes[i] = outcome(
                        record,
                        Status.EXPIRED,
                        "the key's TTL of " + value.ttlSeconds() + " s ran out since the delete at "
                                + record.deletedAt());
                continue;
            }
            byte[] payload;
            try {
                payload = Base64.getDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                outcomes[i] = outcome(record, Status.FAILED, "the record's '" + ValueReader.VALUE + "' is not base64");
                continue;
            }
            String key = dataset.keyOf(record.primaryKey());
            sent.add(i);
            keys.add(key);
            payloads.add(payload);
            restores.add(batch.restoreIfAbsent(key, ttlMillis, payload));
        }
        batch.send();

        String action = "restore keys of dataset '" + name + "'";
        List<Reply<String>> replies = pipeline.replies(action, restores);
        List<Integer> busy = new ArrayList<>();
        for (int n = 0; n < sent.size(); n++) {
            int i = sent.get(n);
            Throwable error = replies.get(n).error();
            if (error == null) {
                outcomes[i] = outcome(records.get(i), Status.RESTORED, null);
                continue;
            }
            String reply = RedisFailures.serverReply(error);
            if (reply != null && RedisFailures.code(reply).equals("BUSYKEY")) {
                busy.add(n);
                continue;
            }
            StoreException failure = RedisFailures.translate(action, error);
            if (failure instanceof StoreException.Retriable) {
                throw failure; // retrying the whole call is safe: what was restored now reports "already restored"
            }
            outcomes[i] = outcome(records.get(i), Status.FAILED, failure.getMessage());
        }
        keptOutcomes(action, busy, sent, keys, payloads, records, outcomes);
        return new RestoreOutcome(List.of(outcomes));
    }

    /**
     * Milliseconds of TTL left for a key read with {@code ttlSeconds} and deleted at {@code deletedAt}: 0 for a key
     * without a TTL (RESTORE's "no expiry"), negative once it has run out.
     */
    public static long remainingTtlMillis(Integer ttlSeconds, Instant deletedAt, Instant now) {
        if (ttlSeconds == null) {
            return 0;
        }
        long elapsed = Math.max(0, Duration.between(deletedAt, now).toMillis());
        long left = ttlSeconds * 1_000L - elapsed;
        return left > 0 ? left : -1;
    }

    /**
     * The keys that exist now were kept; those holding the record's own value, byte for byte, were restored by an
     * earlier call. (A restored set or hash stored as a hash table may dump its members in another order, so a
     * repeated restore of one reads as "exists again": the status is the same.)
     */
    private void keptOutcomes(
            String action,
            List<Integer> busy,
            List<Integer> sent,
            List<String> keys,
            List<byte[]> payloads,
            List<DeletionRecord> records,
            RecordOutcome[] outcomes) {
        List<RedisFuture<byte[]>> dumps = new ArrayList<>(busy.size());
        Pipeline.Batch batch = pipeline.batch();
        for (int n : busy) {
            dumps.add(batch.dump(keys.get(n)));
        }
        batch.send();
        List<byte[]> now = pipeline.values(action, dumps);
        for (int b = 0; b < busy.size(); b++) {
            int n = busy.get(b);
            boolean same = Arrays.equals(now.get(b), payloads.get(n));
            outcomes[sent.get(n)] = outcome(
                    records.get(sent.get(n)),
                    Status.NEWER_DATA_KEPT,
                    same
                            ? "already restored"
                            : "key '" + keys.get(n)
                                    + "' exists again (written after the delete, or restored before);"
                                    + " its value is kept, nothing was written");
        }
    }

    private static RecordOutcome outcome(DeletionRecord record, Status status, String detail) {
        return new RecordOutcome(record.recordId(), record.primaryKey(), status, detail);
    }
}
