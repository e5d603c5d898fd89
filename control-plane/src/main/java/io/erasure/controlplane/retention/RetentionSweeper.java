package io.erasure.controlplane.retention;

import io.erasure.model.contract.S3Layout;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Invariant 8: the platform's own copies of deleted data expire. Candidate and final sets, reports and
 * receipts under {@code runs/}, and large rows kept under {@code retained/}, are deleted once older than
 * the retention (30 days by default). Bucket lifecycle rules are the production extra; this sweeper
 * enforces it everywhere, including stores without lifecycle support (s3proxy).
 */
@Component
public class RetentionSweeper {

    private static final Logger log = LoggerFactory.getLogger(RetentionSweeper.class);

    private final S3Client s3;
    private final String bucket;
    private final Duration retention;
    private final Clock clock;

    public RetentionSweeper(
            S3Client s3,
            @Value("${erasure.s3.bucket}") String bucket,
            @Value("${erasure.retention.platform-copies:30d}") Duration retention,
            Clock clock) {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("erasure.retention.platform-copies must be positive, got " + retention);
        }
        this.s3 = s3;
        this.bucket = bucket;
        this.retention = retention;
        this.clock = clock;
    }

    @Scheduled(
            fixedDelayString = "${erasure.retention.sweep-interval:1h}",
            initialDelayString = "${erasure.retention.sweep-initial-delay:10m}")
    public void sweepQuietly() {
        try {
            int deleted = sweep();
            if (deleted > 0) {
                log.info("retention: deleted {} platform copies older than {}", deleted, retention);
            }
        } catch (RuntimeException e) {
            log.warn("retention sweep failed, next sweep retries: {}", e.toString());
        }
    }

    /** Deletes every object under runs/ and retained/ last modified before now − retention; returns how many. */
    public int sweep() {
        Instant expiredBefore = clock.instant().minus(retention);
        int deleted = 0;
        for (String prefix : List.of(S3Layout.RUNS, S3Layout.RETAINED)) {
            List<String> expired = s3
                    .listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix))
                    .contents()
                    .stream()
                    .filter(object -> object.lastModified().isBefore(expiredBefore))
                    .map(S3Object::key)
                    .toList();
            for (String key : expired) {
                // one by one: multi-object delete needs Content-MD5, which not every S3-compatible store accepts
                s3.deleteObject(r -> r.bucket(bucket).key(key));
            }
            deleted += expired.size();
        }
        return deleted;
    }
}
