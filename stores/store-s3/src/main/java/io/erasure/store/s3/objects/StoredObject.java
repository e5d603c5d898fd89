package io.erasure.store.s3.objects;

import io.erasure.model.cutoff.CutoffTimestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * An object as a HEAD or a listing shows it.
 *
 * @param etag         the ETag as the server gives it (quoted)
 * @param lastModified when the object was last written, to the second
 */
public record StoredObject(String key, String etag, Instant lastModified, long size) {

    public StoredObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(lastModified, "lastModified");
    }

    /**
     * The object's write time for cut-off decisions: S3 keeps LastModified to the second (a HEAD's Last-Modified
     * header has no fraction), so the object may have been written as late as the last microsecond of that second,
     * and is taken to have been. A cut-off in the same second therefore never lets it be deleted.
     */
    public long lastWriteMicros() {
        return latestMicrosOf(lastModified);
    }

    /** The last microsecond of the second {@code instant} falls in. */
    public static long latestMicrosOf(Instant instant) {
        return CutoffTimestamp.toMicros(instant.truncatedTo(ChronoUnit.SECONDS)) + 999_999;
    }
}
