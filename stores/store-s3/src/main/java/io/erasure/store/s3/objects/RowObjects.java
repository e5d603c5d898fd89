package io.erasure.store.s3.objects;

import io.erasure.store.s3.client.S3Failures;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Reads which objects a row has now: one HEAD for a plain template, a paged listing for a prefix, bounded by
 * {@code max-objects-per-key}.
 */
public final class RowObjects {

    private final S3Client s3;
    private final String bucket;
    private final int maxObjectsPerKey;
    private final String maxObjectsSetting;

    public RowObjects(S3Client s3, String bucket, int maxObjectsPerKey, String maxObjectsSetting) {
        this.s3 = s3;
        this.bucket = bucket;
        this.maxObjectsPerKey = maxObjectsPerKey;
        this.maxObjectsSetting = maxObjectsSetting;
    }

    public String bucket() {
        return bucket;
    }

    /** The row's objects in key order; empty if it has none. */
    public List<StoredObject> of(ObjectTemplate.RowTarget target) {
        if (!target.prefix()) {
            return head(target.key()).map(List::of).orElse(List.of());
        }
        List<StoredObject> objects = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Request.Builder request = ListObjectsV2Request.builder()
                    .bucket(bucket)
                    .prefix(target.key())
                    .maxKeys(Math.min(1000, maxObjectsPerKey + 1));
            if (token != null) {
                request.continuationToken(token);
            }
            ListObjectsV2Response page =
                    call("list s3://" + bucket + "/" + target.key(), () -> s3.listObjectsV2(request.build()));
            for (S3Object object : page.contents()) {
                objects.add(new StoredObject(object.key(), object.eTag(), object.lastModified(), object.size()));
            }
            if (objects.size() > maxObjectsPerKey) {
                throw new StoreException.Fatal("prefix s3://" + bucket + "/" + target.key() + " holds more than "
                        + maxObjectsPerKey + " objects; a key's objects are listed, logged and deleted in one batch,"
                        + " so this many is refused. Narrow the key template or raise " + maxObjectsSetting);
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return objects;
    }

    /** The object at {@code key}, or empty if there is none. */
    public Optional<StoredObject> head(String key) {
        return headResponse(key)
                .map(head -> new StoredObject(key, head.eTag(), head.lastModified(), head.contentLength()));
    }

    /** The full HEAD answer (content type, user metadata) of the object at {@code key}, or empty. */
    public Optional<HeadObjectResponse> headResponse(String key) {
        try {
            return Optional.of(s3.headObject(b -> b.bucket(bucket).key(key)));
        } catch (SdkException e) {
            if (S3Failures.isMissingKey(e)) {
                return Optional.empty();
            }
            throw S3Failures.translate("read s3://" + bucket + "/" + key, bucket, e);
        }
    }

    private <T> T call(String action, Supplier<T> request) {
        try {
            return request.get();
        } catch (SdkException e) {
            throw S3Failures.translate(action, bucket, e);
        }
    }
}
