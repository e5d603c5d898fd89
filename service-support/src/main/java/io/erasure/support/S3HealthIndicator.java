package io.erasure.support;

import java.time.Duration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import software.amazon.awssdk.services.s3.S3Client;

/** UP when the platform bucket answers a HEAD request; DOWN with the error otherwise. */
public class S3HealthIndicator extends AbstractHealthIndicator {

    // a health probe must answer quickly; the SDK's own retries could take far longer
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final S3Client s3;
    private final String bucket;

    public S3HealthIndicator(S3Client s3, String bucket) {
        super("S3 health check failed");
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("bucket", bucket);
        try {
            s3.headBucket(request ->
                    request.bucket(bucket).overrideConfiguration(override -> override.apiCallTimeout(TIMEOUT)));
            builder.up();
        } catch (RuntimeException e) {
            builder.down(e);
        }
    }
}
