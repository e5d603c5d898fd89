package io.erasure.store.s3.plan;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.store.s3.client.S3Failures;
import io.erasure.store.s3.objects.ObjectTemplate;
import io.erasure.store.s3.objects.ObjectTemplate.RowTarget;
import io.erasure.store.s3.objects.RowObjects;
import io.erasure.store.s3.objects.StoredObject;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * Executes a plan's object deletes, row by row, only for rows whose objects are still exactly as planned.
 *
 * <p>Right before deleting, each row planned for deletion is read again (HEAD, or a listing for a prefix). The row is
 * kept, and counted as skipped-newer, if any of its objects has another ETag than at plan time, was last modified
 * after the cut-off (an identical rewrite keeps the ETag but not the date), or is new under the prefix. A row whose
 * objects are all gone counts as absent. Only objects named by the plan's statements are ever deleted.
 *
 * <p>The confirmed objects go out in DeleteObjects requests. With {@code conditional-requests} each object carries
 * its planned ETag, so the server refuses to delete one rewritten since (412, counted as skipped-newer); requests
 * carry up to 1,000 objects. Without, requests carry at most {@value #UNCONDITIONAL_OBJECTS_PER_REQUEST} objects,
 * so that little time passes between an object's re-read and its delete.
 */
public final class DeleteExecutor {

    static final int CONDITIONAL_OBJECTS_PER_REQUEST = 1_000;
    static final int UNCONDITIONAL_OBJECTS_PER_REQUEST = 100;

    private final S3Client s3;
    private final RowObjects objects;
    private final boolean conditional;

    public DeleteExecutor(S3Client s3, RowObjects objects, boolean conditional) {
        this.s3 = s3;
        this.objects = objects;
        this.conditional = conditional;
    }

    public DeleteOutcome execute(ObjectTemplate template, DeletePlan plan) {
        String bucket = objects.bucket();
        Map<String, String> planned = new LinkedHashMap<>();
        for (PlannedStatement statement : plan.statements()) {
            ObjectDelete delete = ObjectDelete.parse(bucket, statement);
            planned.put(delete.key(), delete.etag());
        }
        CutoffTimestamp cutoff = plan.batch().cutoff();
        Requests requests =
                new Requests(bucket, conditional ? CONDITIONAL_OBJECTS_PER_REQUEST : UNCONDITIONAL_OBJECTS_PER_REQUEST);
        List<List<String>> confirmedRows = new ArrayList<>();
        int absent = (int) plan.count(Action.ABSENT);
        int skippedNewer = (int) plan.count(Action.SKIP_WRITTEN_AFTER_CUTOFF);
        for (DeletePlan.KeyDecision decision : plan.decisions()) {
            if (decision.action() != Action.DELETE_ROW) {
                continue;
            }
            RowTarget target = template.render(decision.key());
            List<StoredObject> now = objects.of(target);
            if (now.isEmpty()) {
                absent++;
            } else if (now.stream()
                    .anyMatch(o ->
                            !o.etag().equals(planned.get(o.key())) || cutoff.isWrittenAfter(o.lastWriteMicros()))) {
                skippedNewer++;
            } else {
                List<String> keys = now.stream().map(StoredObject::key).toList();
                confirmedRows.add(keys);
                now.forEach(o -> requests.add(o.key(), o.etag()));
            }
        }
        requests.flush();
        int deleted = 0;
        for (List<String> row : confirmedRows) {
            if (row.stream().anyMatch(requests.refused::contains)) {
                skippedNewer++;
            } else {
                deleted++;
            }
        }
        return new DeleteOutcome(deleted, skippedNewer, absent, 0, requests.sent);
    }

    /** Objects confirmed for deletion, sent in DeleteObjects requests of at most {@code perRequest}. */
    private final class Requests {
        private final String bucket;
        private final int perRequest;
        private final List<ObjectIdentifier> pending = new ArrayList<>();
        /** Objects the server kept because their ETag no longer matched. */
        private final Set<String> refused = new HashSet<>();
        /** Two keys may render to the same object; it is sent once. */
        private final Set<String> added = new HashSet<>();

        private int sent;

        Requests(String bucket, int perRequest) {
            this.bucket = bucket;
            this.perRequest = perRequest;
        }

        void add(String key, String etag) {
            if (!added.add(key)) {
                return;
            }
            ObjectIdentifier.Builder id = ObjectIdentifier.builder().key(key);
            if (conditional) {
                id.eTag(etag);
            }
            pending.add(id.build());
            if (pending.size() >= perRequest) {
                flush();
            }
        }

        void flush() {
            if (pending.isEmpty()) {
                return;
            }
            List<ObjectIdentifier> ids = List.copyOf(pending);
            pending.clear();
            DeleteObjectsResponse response;
            try {
                response = s3.deleteObjects(
                        b -> b.bucket(bucket).delete(d -> d.objects(ids).quiet(true)));
            } catch (SdkException e) {
                throw S3Failures.translate("delete " + ids.size() + " objects from s3://" + bucket, bucket, e);
            }
            sent += ids.size();
            List<S3Error> failed = new ArrayList<>();
            for (S3Error error : response.errors()) {
                if ("PreconditionFailed".equals(error.code())) {
                    refused.add(error.key());
                } else if (!"NoSuchKey".equals(error.code())) {
                    failed.add(error);
                }
            }
            if (!failed.isEmpty()) {
                S3Error first = failed.get(0);
                String message = "delete from s3://" + bucket + ": " + failed.size() + " objects refused, e.g. "
                        + first.key() + ": " + first.code() + " " + first.message();
                boolean retriable = failed.stream()
                        .allMatch(e -> "InternalError".equals(e.code())
                                || "SlowDown".equals(e.code())
                                || "ServiceUnavailable".equals(e.code()));
                throw retriable
                        ? new StoreException.Retriable(message, null)
                        : new StoreException.Fatal(message
                                + ("AccessDenied".equals(first.code())
                                        ? "; grant s3:DeleteObject on bucket '" + bucket + "'"
                                        : ""));
            }
        }
    }
}
