package io.erasure.audit.cassandra;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.BackupJson;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import tools.jackson.databind.JsonNode;

/** The reads a backup layout's metadata takes: small objects whole, JSON, and the folders under a prefix. */
record BucketReads(S3Client s3, String bucket) {

    /** The object's bytes. @throws BackupIntegrityException if it does not exist */
    byte[] bytes(String key) {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
        } catch (NoSuchKeyException e) {
            throw new BackupIntegrityException("s3://" + bucket + "/" + key + " does not exist", e);
        }
    }

    /** The object as JSON. @throws BackupIntegrityException if it does not exist or is no JSON */
    JsonNode json(String key) {
        byte[] bytes = bytes(key);
        try {
            return BackupJson.MAPPER.readTree(bytes);
        } catch (RuntimeException e) {
            throw new BackupIntegrityException(
                    "s3://" + bucket + "/" + key + " is not valid JSON: " + BackupJson.rootMessage(e), e);
        }
    }

    /** The names of the folders right under {@code folder}. */
    List<String> folders(String folder) {
        return s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(folder).delimiter("/")).commonPrefixes().stream()
                .map(CommonPrefix::prefix)
                .map(p -> p.substring(folder.length(), p.length() - 1))
                .toList();
    }
}
