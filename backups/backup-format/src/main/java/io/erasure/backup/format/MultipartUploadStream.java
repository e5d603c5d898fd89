package io.erasure.backup.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * An {@link OutputStream} that stores one S3 object: bytes are buffered into chunks of
 * {@link #DEFAULT_CHUNK_SIZE} and sent as the parts of a multipart upload, so an object of any size
 * needs only one chunk of memory. An object smaller than one chunk is sent with a single PUT.
 *
 * <p>The object appears only on {@link #close()} (S3 shows an incomplete multipart upload to no
 * reader), so a writer that fails half-way leaves no truncated object behind: it calls
 * {@link #abort()}, which also frees the parts already uploaded. Not thread-safe.
 */
public final class MultipartUploadStream extends OutputStream {

    /** S3's minimum part size is 5 MiB (except the last); 8 MiB keeps the part count low. */
    public static final int DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;

    private final S3Client s3;
    private final String bucket;
    private final String key;
    private final byte[] chunk;
    private final List<CompletedPart> parts = new ArrayList<>();
    private int filled;
    private String uploadId;
    private boolean closed;

    public MultipartUploadStream(S3Client s3, String bucket, String key) {
        this(s3, bucket, key, DEFAULT_CHUNK_SIZE);
    }

    public MultipartUploadStream(S3Client s3, String bucket, String key, int chunkSize) {
        if (chunkSize < 5 * 1024 * 1024) {
            throw new IllegalArgumentException(
                    "chunkSize must be at least 5 MiB (S3's minimum part size), got " + chunkSize);
        }
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
        this.chunk = new byte[chunkSize];
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (filled == chunk.length) {
            uploadChunk();
        }
        chunk[filled++] = (byte) b;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        ensureOpen();
        while (length > 0) {
            if (filled == chunk.length) {
                uploadChunk();
            }
            int n = Math.min(length, chunk.length - filled);
            System.arraycopy(buffer, offset, chunk, filled, n);
            filled += n;
            offset += n;
            length -= n;
        }
    }

    /** Completes the object: a single PUT if it fits one chunk, else the last part and the completion. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (uploadId == null) {
                s3.putObject(r -> r.bucket(bucket).key(key).contentLength((long) filled), body());
            } else {
                if (filled > 0) {
                    uploadChunk();
                }
                s3.completeMultipartUpload(r -> r.bucket(bucket)
                        .key(key)
                        .uploadId(uploadId)
                        .multipartUpload(
                                CompletedMultipartUpload.builder().parts(parts).build()));
            }
            closed = true;
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Gives up the object: nothing becomes visible and uploaded parts are released. Idempotent. */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        if (uploadId != null) {
            try {
                s3.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
            } catch (RuntimeException e) {
                // an unfinished upload is invisible to readers; S3 lifecycle rules clean it up later
            }
        }
    }

    public String key() {
        return key;
    }

    private void uploadChunk() {
        if (uploadId == null) {
            uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key)).uploadId();
        }
        int partNumber = parts.size() + 1;
        int length = filled;
        String eTag = s3.uploadPart(
                        r -> r.bucket(bucket)
                                .key(key)
                                .uploadId(uploadId)
                                .partNumber(partNumber)
                                .contentLength((long) length),
                        body())
                .eTag();
        parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
        filled = 0;
    }

    // the SDK reads the chunk before the call returns, so no copy is needed
    private RequestBody body() {
        return RequestBody.fromInputStream(new ByteArrayInputStream(chunk, 0, filled), filled);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("upload of " + key + " is already closed or aborted");
        }
    }
}
