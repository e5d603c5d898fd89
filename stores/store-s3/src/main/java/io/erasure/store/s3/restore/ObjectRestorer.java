package io.erasure.store.s3.restore;

import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.s3.client.S3Failures;
import io.erasure.store.s3.objects.ObjectTemplate;
import io.erasure.store.s3.objects.ObjectTemplate.RowTarget;
import io.erasure.store.s3.objects.RowObjects;
import io.erasure.store.s3.objects.StoredObject;
import io.erasure.store.s3.read.ObjectSnapshot;
import io.erasure.store.spi.RestoreOutcome.RecordOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * Puts a record's objects back where they are absent: inline content with PutObject, a retained copy with a
 * server-side CopyObject, each with its content type, user metadata and other system metadata.
 *
 * <p>An object present at its key is never overwritten: it is reported as kept ({@link Status#NEWER_DATA_KEPT};
 * "already restored" when its ETag is the recorded one). Every write is preceded by a HEAD; with
 * {@code conditional-requests} it also carries {@code If-None-Match: *}, so the server refuses it if the object
 * appeared after the HEAD. Without, an object written between the HEAD and the restore's write is overwritten.
 *
 * <p>A record's object keys must lie where the dataset's template puts its key: a record cannot write elsewhere.
 */
public final class ObjectRestorer {

    private final S3Client s3;
    private final RowObjects objects;
    private final boolean conditional;

    public ObjectRestorer(S3Client s3, RowObjects objects, boolean conditional) {
        this.s3 = s3;
        this.objects = objects;
        this.conditional = conditional;
    }

    public RecordOutcome restore(ObjectTemplate template, DeletionRecord record) {
        if (record.columns().isEmpty()) {
            return failed(
                    record,
                    "the record's columns are kept at " + record.retainedRef()
                            + "; load them into the record before restoring");
        }
        RowTarget target = template.render(record.primaryKey());
        List<ObjectSnapshot> snapshots = new ArrayList<>();
        for (ColumnValue column : record.columns()) {
            ObjectSnapshot snapshot;
            try {
                snapshot = ObjectSnapshot.fromColumn(column);
            } catch (IllegalArgumentException e) {
                return failed(record, e.getMessage());
            }
            if (!target.owns(snapshot.key())) {
                return failed(
                        record,
                        "object '" + snapshot.key() + "' is not " + (target.prefix() ? "under '" : "'") + target.key()
                                + "', where key template '" + template.text() + "' puts this key; not restored");
            }
            snapshots.add(snapshot);
        }
        List<String> restored = new ArrayList<>();
        List<String> alreadyRestored = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (ObjectSnapshot snapshot : snapshots) {
            Optional<StoredObject> existing = objects.head(snapshot.key());
            if (existing.isPresent()) {
                (existing.get().etag().equals(snapshot.etag()) ? alreadyRestored : kept).add(snapshot.key());
                continue;
            }
            try {
                write(snapshot);
                restored.add(snapshot.key());
            } catch (SdkException e) {
                if (S3Failures.isPreconditionFailed(e)) {
                    kept.add(snapshot.key());
                } else if (!snapshot.inline() && S3Failures.isMissingKey(e)) {
                    return failed(
                            record,
                            "the retained copy s3://" + snapshot.retainedBucket() + "/" + snapshot.retainedRef()
                                    + " of '" + snapshot.key() + "' is gone (retained copies are swept after 30 days)"
                                    + (restored.isEmpty() ? "" : "; restored before that: " + restored));
                } else {
                    throw S3Failures.translate(
                            "restore s3://" + objects.bucket() + "/" + snapshot.key(), objects.bucket(), e);
                }
            }
        }
        if (!kept.isEmpty()) {
            return new RecordOutcome(
                    record.recordId(),
                    record.primaryKey(),
                    Status.NEWER_DATA_KEPT,
                    "kept newer objects " + kept + (restored.isEmpty() ? "" : "; restored " + restored));
        }
        if (restored.isEmpty()) {
            return new RecordOutcome(
                    record.recordId(), record.primaryKey(), Status.NEWER_DATA_KEPT, "already restored");
        }
        return new RecordOutcome(
                record.recordId(),
                record.primaryKey(),
                Status.RESTORED,
                alreadyRestored.isEmpty() ? null : "already restored before: " + alreadyRestored);
    }

    private void write(ObjectSnapshot snapshot) {
        String bucket = objects.bucket();
        var headers = snapshot.headers();
        if (snapshot.inline()) {
            PutObjectRequest.Builder put = PutObjectRequest.builder()
                    .bucket(bucket)
                    .key(snapshot.key())
                    .contentType(snapshot.contentType())
                    .metadata(snapshot.userMetadata())
                    .cacheControl(headers.get("cacheControl"))
                    .contentEncoding(headers.get("contentEncoding"))
                    .contentDisposition(headers.get("contentDisposition"))
                    .contentLanguage(headers.get("contentLanguage"));
            if (conditional) {
                put.ifNoneMatch("*");
            }
            s3.putObject(put.build(), RequestBody.fromBytes(snapshot.content()));
        } else {
            CopyObjectRequest.Builder copy = CopyObjectRequest.builder()
                    .sourceBucket(snapshot.retainedBucket())
                    .sourceKey(snapshot.retainedRef())
                    .destinationBucket(bucket)
                    .destinationKey(snapshot.key())
                    // the recorded metadata, not whatever the retained copy may carry
                    .metadataDirective(MetadataDirective.REPLACE)
                    .contentType(snapshot.contentType())
                    .metadata(snapshot.userMetadata())
                    .cacheControl(headers.get("cacheControl"))
                    .contentEncoding(headers.get("contentEncoding"))
                    .contentDisposition(headers.get("contentDisposition"))
                    .contentLanguage(headers.get("contentLanguage"));
            if (conditional) {
                copy.ifNoneMatch("*");
            }
            s3.copyObject(copy.build());
        }
    }

    private static RecordOutcome failed(DeletionRecord record, String detail) {
        return new RecordOutcome(record.recordId(), record.primaryKey(), Status.FAILED, detail);
    }
}
