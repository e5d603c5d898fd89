package io.erasure.audit.rds;

import io.erasure.audit.join.RangedObject;
import io.erasure.backup.format.BackupIntegrityException;
import java.io.IOException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One Parquet file of an export, read where it lies by ranged GETs, each with {@code If-Match} on the ETag planned: a
 * file written again under the same name, or deleted, after the audit was planned fails the unit naming it.
 */
public record ExportedFile(S3Client s3, String bucket, ExportedPart part) implements RangedObject {

    @Override
    public String name() {
        return "s3://" + bucket + "/" + part.key();
    }

    @Override
    public long size() {
        return part.size();
    }

    @Override
    public void read(long offset, byte[] buffer, int at, int length) throws IOException {
        if (length == 0) {
            return;
        }
        String range = "bytes=" + offset + "-" + (offset + length - 1);
        try (ResponseInputStream<GetObjectResponse> in = open(range)) {
            int n = in.readNBytes(buffer, at, length);
            if (n != length) {
                // the ETag matched, so the object is the one planned: the connection ended early
                throw new IOException("reading " + range + " of " + name() + " ended after " + n + " bytes");
            }
        }
    }

    private ResponseInputStream<GetObjectResponse> open(String range) throws IOException {
        try {
            return s3.getObject(
                    b -> b.bucket(bucket).key(part.key()).range(range).ifMatch(part.eTag()));
        } catch (NoSuchKeyException e) {
            throw new BackupIntegrityException(
                    "part " + name() + " is missing: it was deleted after the audit was planned; run the audit again",
                    e);
        } catch (S3Exception e) {
            // 416: shorter than planned, which some servers answer before comparing the ETag
            if (e.statusCode() == 412 || e.statusCode() == 416) {
                throw new BackupIntegrityException(
                        "part " + name() + " was replaced after the audit was planned (its"
                                + " ETag is no longer " + part.eTag() + ", or it is no longer " + part.size()
                                + " bytes): the"
                                + " export was written again under the same name; run the audit again",
                        e);
            }
            // an access error (the export's KMS key, say) or an unavailable server: not the file's fault
            throw new IOException("reading " + range + " of " + name() + " failed: " + e.getMessage(), e);
        } catch (SdkException e) {
            // the network, a timeout: worth a retry
            throw new IOException("reading " + range + " of " + name() + " failed: " + e.getMessage(), e);
        }
    }
}
