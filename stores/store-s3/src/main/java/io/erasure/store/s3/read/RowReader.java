package io.erasure.store.s3.read;

import io.erasure.model.record.ColumnValue;
import io.erasure.store.s3.S3Settings;
import io.erasure.store.s3.client.S3Failures;
import io.erasure.store.s3.objects.ObjectTemplate.RowTarget;
import io.erasure.store.s3.objects.RowObjects;
import io.erasure.store.s3.objects.StoredObject;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Reads a row's objects for the write-ahead log: content and metadata of each. An object up to
 * {@code inline-max-bytes} is read whole; a larger one is first copied server-side to the platform's
 * {@code retained-bucket} under {@code <retained-prefix><dataset>/<sha256 of its key>/<etag>}, and the record holds
 * that reference. Both the read and the copy are conditioned on the ETag of the HEAD that gave the metadata, so the
 * logged content, metadata and ETag always belong together; an object that changes in between is read again.
 */
public final class RowReader {

    /** CopyObject copies at most 5 GiB in one request. */
    static final long MAX_RETAINED_BYTES = 5L * 1024 * 1024 * 1024;

    private static final int ATTEMPTS = 3;

    private final S3Client s3;
    private final RowObjects objects;
    private final S3Settings settings;

    public RowReader(S3Client s3, RowObjects objects, S3Settings settings) {
        this.s3 = s3;
        this.objects = objects;
        this.settings = settings;
    }

    /** The row at {@code target} with one {@code object_<n>} column per object, or empty if it has no object. */
    public Optional<LiveRow> read(String dataset, Map<String, Object> key, RowTarget target) {
        List<String> keys = target.prefix()
                ? objects.of(target).stream().map(StoredObject::key).toList()
                : List.of(target.key());
        List<ColumnValue> columns = new ArrayList<>();
        long newest = Long.MIN_VALUE;
        for (String objectKey : keys) {
            Optional<ObjectSnapshot> snapshot = snapshot(dataset, objectKey);
            if (snapshot.isPresent()) {
                columns.add(snapshot.get().toColumn(columns.size()));
                newest = Math.max(
                        newest, StoredObject.latestMicrosOf(snapshot.get().lastModified()));
            }
        }
        return columns.isEmpty() ? Optional.empty() : Optional.of(new LiveRow(key, columns, newest));
    }

    /** The key under which a large object's copy is retained. */
    public static String retainedKey(String retainedPrefix, String dataset, String objectKey, String etag) {
        return retainedPrefix + dataset + "/" + sha256Hex(objectKey) + "/" + etag.replaceAll("[^A-Za-z0-9-]", "");
    }

    private Optional<ObjectSnapshot> snapshot(String dataset, String key) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Optional<HeadObjectResponse> found = objects.headResponse(key);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            HeadObjectResponse head = found.get();
            try {
                return Optional.of(
                        head.contentLength() <= settings.inlineMaxBytes()
                                ? inline(key, head)
                                : retained(dataset, key, head));
            } catch (SdkException e) {
                if (S3Failures.isMissingKey(e)) {
                    return Optional.empty();
                }
                if (!S3Failures.isPreconditionFailed(e)) {
                    throw S3Failures.translate(
                            "read s3://" + settings.bucket() + "/" + key + " for the deletion log",
                            settings.bucket(),
                            e);
                }
                // rewritten between the HEAD and the read: read the new version
            }
        }
        throw new StoreException.Retriable(
                "s3://" + settings.bucket() + "/" + key + " changed during each of " + ATTEMPTS
                        + " reads; try again later",
                null);
    }

    private ObjectSnapshot inline(String key, HeadObjectResponse head) {
        byte[] content = s3.getObjectAsBytes(
                        b -> b.bucket(settings.bucket()).key(key).ifMatch(head.eTag()))
                .asByteArray();
        return snapshotOf(key, head, Base64.getEncoder().encodeToString(content), null);
    }

    private ObjectSnapshot retained(String dataset, String key, HeadObjectResponse head) {
        String where = "s3://" + settings.bucket() + "/" + key;
        if (settings.retainedBucket() == null) {
            throw new StoreException.Fatal(where + " is " + head.contentLength() + " bytes, above inline-max-bytes ("
                    + settings.inlineMaxBytes() + "), and no retained bucket is configured to keep a copy before it is"
                    + " deleted; set " + settings.settingName("retained-bucket") + " (the platform bucket)");
        }
        if (head.contentLength() > MAX_RETAINED_BYTES) {
            throw new StoreException.Fatal(where + " is " + head.contentLength() + " bytes, more than the 5 GiB one"
                    + " CopyObject can retain; such objects are not deleted by this adapter");
        }
        String ref = retainedKey(settings.retainedPrefix(), dataset, key, head.eTag());
        try {
            // same content type and user metadata as the source (metadata directive COPY)
            s3.copyObject(b -> b.sourceBucket(settings.bucket())
                    .sourceKey(key)
                    .copySourceIfMatch(head.eTag())
                    .destinationBucket(settings.retainedBucket())
                    .destinationKey(ref));
        } catch (SdkException e) {
            if (S3Failures.isPreconditionFailed(e) || S3Failures.isMissingKey(e)) {
                throw e;
            }
            throw S3Failures.translate(
                    "retain a copy of " + where + " at s3://" + settings.retainedBucket() + "/" + ref,
                    settings.retainedBucket(),
                    e);
        }
        return snapshotOf(key, head, null, ref);
    }

    private ObjectSnapshot snapshotOf(String key, HeadObjectResponse head, String base64, String retainedRef) {
        Map<String, String> headers = new LinkedHashMap<>();
        putIfSet(headers, "cacheControl", head.cacheControl());
        putIfSet(headers, "contentEncoding", head.contentEncoding());
        putIfSet(headers, "contentDisposition", head.contentDisposition());
        putIfSet(headers, "contentLanguage", head.contentLanguage());
        return new ObjectSnapshot(
                key,
                head.eTag(),
                head.lastModified(),
                head.contentLength(),
                head.contentType(),
                head.metadata(),
                headers,
                base64,
                retainedRef == null ? null : settings.retainedBucket(),
                retainedRef);
    }

    private static void putIfSet(Map<String, String> headers, String name, String value) {
        if (value != null && !value.isEmpty()) {
            headers.put(name, value);
        }
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
