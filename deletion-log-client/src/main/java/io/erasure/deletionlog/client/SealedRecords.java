package io.erasure.deletionlog.client;

import io.erasure.model.check.Names;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Deletion records as they leave the deletion service: on {@code erasure.deletion.log} and, for rows too large for one
 * message, under {@code retained/} in S3. Both are sealed with the dataset's current data key ({@link DatasetKeys}, the
 * key of the Cassandra log), so a purge of the dataset's keys makes every copy unreadable at once.
 *
 * <p>Topic message, format {@value #FORMAT}: {@code {"format":2,"dataset":…,"recordId":…,"deletedAt":…,"keyVersion":v,
 * "sealed":base64(AES-GCM(json(DeletionRecord)))}}; only the dataset, record id and deletion time are in clear, for the
 * ingest's routing and purge checks. A message without {@code format} is a plain {@link DeletionRecord} (written before
 * sealing existed, still on the topic for up to 7 days) and is read as such. A retained object is
 * {@code {"format":2,"dataset":…,"recordId":…,"keyVersion":v,"sealed":…}} over the columns' JSON; a JSON array is a
 * plain one from before.
 */
public final class SealedRecords {

    public static final int FORMAT = 2;
    private static final String TOPIC_AAD = "erasure-log-topic|";
    private static final String RETAINED_AAD = "erasure-log-retained|";

    private final DatasetKeys keys;
    private final JsonMapper json;
    private final ObjectReader plainRecords;
    private final Map<String, Optional<SecretKey>> keyCache;

    public SealedRecords(DatasetKeys keys, JsonMapper json) {
        this(keys, json, null);
    }

    private SealedRecords(DatasetKeys keys, JsonMapper json, Map<String, Optional<SecretKey>> keyCache) {
        this.keys = keys;
        this.json = json;
        this.keyCache = keyCache;
        // a record published before DeletionRecord.anonymised existed has no such field: it deleted a whole row
        this.plainRecords =
                json.readerFor(DeletionRecord.class).without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /**
     * A reader that looks each key version up once, for one batch of messages (keys are not cached across batches: a
     * purge must take effect at once).
     */
    public SealedRecords forOneBatch() {
        return new SealedRecords(keys, json, new HashMap<>());
    }

    /** The current key of a dataset, looked up once for many records. */
    public DatasetKeys.DataKey currentKey(String dataset) {
        return keys.current(dataset);
    }

    /** The topic message of {@code record}, sealed with {@code key} (its dataset's current one). */
    public String sealForTopic(DeletionRecord record, DatasetKeys.DataKey key) {
        byte[] sealed = PayloadCipher.encrypt(key.key(), json.writeValueAsBytes(record), TOPIC_AAD + record.recordId());
        return json.writeValueAsString(new TopicMessage(
                FORMAT,
                record.dataset(),
                record.recordId(),
                record.deletedAt(),
                key.version(),
                Base64.getEncoder().encodeToString(sealed)));
    }

    /** The retained object of a record's columns, sealed with {@code key}. */
    public byte[] sealRetained(DeletionRecord record, DatasetKeys.DataKey key) {
        byte[] sealed = PayloadCipher.encrypt(
                key.key(), json.writeValueAsBytes(record.columns()), RETAINED_AAD + record.recordId());
        return json.writeValueAsBytes(new RetainedObject(
                FORMAT,
                record.dataset(),
                record.recordId(),
                key.version(),
                Base64.getEncoder().encodeToString(sealed)));
    }

    /**
     * The record of a topic message, sealed or plain.
     *
     * @throws KeyGone if it was sealed with a key that is gone (purged): the message can never be read
     * @throws IllegalArgumentException if it is not a deletion record in a format this reader knows, or was altered
     */
    public DeletionRecord openFromTopic(String message) {
        JsonNode node = readTree(message);
        if (!node.has("format")) {
            return plainRecords.readValue(node);
        }
        TopicMessage sealed = envelope(node, TopicMessage.class);
        DeletionRecord record = plainRecords.readValue(
                open(sealed.dataset(), sealed.recordId(), sealed.keyVersion(), sealed.sealed(), TOPIC_AAD));
        if (!record.dataset().equals(sealed.dataset()) || !record.recordId().equals(sealed.recordId())) {
            throw new IllegalArgumentException("sealed record " + sealed.recordId() + " of " + sealed.dataset()
                    + " holds another record (" + record.recordId() + " of " + record.dataset() + ")");
        }
        return record;
    }

    /** The dataset and deletion time a message names in clear, without decrypting it (empty for a plain one). */
    public Optional<TopicMessage> envelopeOf(String message) {
        JsonNode node = readTree(message);
        return node.has("format") ? Optional.of(envelope(node, TopicMessage.class)) : Optional.empty();
    }

    /** The columns of a retained object, sealed or plain. Same exceptions as {@link #openFromTopic}. */
    public List<ColumnValue> openRetained(byte[] object) {
        JsonNode node;
        try {
            node = json.readTree(object);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("a retained row is not JSON: " + e.getOriginalMessage());
        }
        TypeReference<List<ColumnValue>> columns = new TypeReference<>() {};
        if (node.isArray()) {
            return json.readerFor(columns).readValue(node);
        }
        RetainedObject sealed = envelope(node, RetainedObject.class);
        return json.readerFor(columns)
                .readValue(
                        open(sealed.dataset(), sealed.recordId(), sealed.keyVersion(), sealed.sealed(), RETAINED_AAD));
    }

    private byte[] open(String dataset, String recordId, int version, String sealed, String aad) {
        Names.datasetName("dataset", dataset);
        Optional<SecretKey> found = keyCache == null
                ? keys.key(dataset, version)
                : keyCache.computeIfAbsent(dataset + "|" + version, k -> keys.key(dataset, version));
        SecretKey key = found.orElseThrow(() -> new KeyGone("record " + recordId + " of " + dataset
                + " is sealed with key version " + version + ", which is gone: the dataset's log was purged"));
        try {
            return PayloadCipher.decrypt(key, Base64.getDecoder().decode(sealed), aad + recordId);
        } catch (PayloadCipher.UnreadablePayload e) {
            throw new IllegalArgumentException("record " + recordId + " of " + dataset + ": " + e.getMessage());
        }
    }

    private JsonNode readTree(String message) {
        try {
            JsonNode node = json.readTree(message);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("a deletion record must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not a deletion record: " + e.getOriginalMessage());
        }
    }

    private <T> T envelope(JsonNode node, Class<T> type) {
        int format = node.path("format").asInt(-1);
        if (format != FORMAT) {
            throw new IllegalArgumentException(
                    "deletion record format " + node.get("format") + " is unknown to this reader" + " (it reads "
                            + FORMAT + " and plain records); deploy the newer version");
        }
        try {
            return json.treeToValue(node, type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("a sealed deletion record is malformed: " + e.getOriginalMessage());
        }
    }

    /** A sealed record on the topic: what is in clear, and the rest sealed. */
    public record TopicMessage(
            int format, String dataset, String recordId, Instant deletedAt, int keyVersion, String sealed) {}

    /** A sealed retained row's columns. */
    public record RetainedObject(int format, String dataset, String recordId, int keyVersion, String sealed) {}

    /** The key a record was sealed with is gone: its dataset's log was purged, and the record with it. */
    public static final class KeyGone extends RuntimeException {
        public KeyGone(String message) {
            super(message);
        }
    }
}
