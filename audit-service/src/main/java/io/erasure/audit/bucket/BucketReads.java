package io.erasure.audit.bucket;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import java.util.List;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.JsonNode;

/**
 * The reads a backup layout's metadata takes: small objects whole, JSON, the folders and the objects under a prefix.
 */
public record BucketReads(S3Client s3, String bucket) {

    /** The object's bytes. @throws BackupIntegrityException if it does not exist */
    public byte[] bytes(String key) {
        return object(key).asByteArray();
    }

    /**
     * The object's bytes with its metadata (upload time, ETag).
     *
     * @throws BackupIntegrityException if it does not exist
     */
    public ResponseBytes<GetObjectResponse> object(String key) {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
        } catch (NoSuchKeyException e) {
            throw new BackupIntegrityException("s3://" + bucket + "/" + key + " does not exist", e);
        }
    }

    /** The object as JSON. @throws BackupIntegrityException if it does not exist or is no JSON */
    public JsonNode json(String key) {
        return json(key, bytes(key));
    }

    /** {@code bytes}, read from {@code key}, as JSON. @throws BackupIntegrityException if they are no JSON */
    public JsonNode json(String key, byte[] bytes) {
        try {
            return BackupJson.MAPPER.readTree(bytes);
        } catch (RuntimeException e) {
            throw new BackupIntegrityException(
                    "s3://" + bucket + "/" + key + " is not valid JSON: " + BackupJson.rootMessage(e), e);
        }
    }

    /** The names of the folders right under {@code folder}. */
    public List<String> folders(String folder) {
        return s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(folder).delimiter("/")).commonPrefixes().stream()
                .map(CommonPrefix::prefix)
                .map(p -> p.substring(folder.length(), p.length() - 1))
                .toList();
    }

    /** Every object whose key starts with {@code prefix}, in key order. */
    public List<S3Object> objects(String prefix) {
        return s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
                .toList();
    }
}
