package io.erasure.support;

import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the platform bucket lives ({@code erasure.s3.*}).
 *
 * @param endpoint  the S3 endpoint (MinIO, s3proxy); {@code null} for AWS itself, where the region decides
 * @param region    the signing region
 * @param accessKey static access key; with {@code secretKey}, or neither to use the AWS default credentials chain
 * @param secretKey static secret key
 * @param bucket    the one platform bucket (backups, runs, retained rows)
 * @param pathStyle {@code bucket} in the path instead of the host name, as MinIO and s3proxy need
 */
@ConfigurationProperties("erasure.s3")
public record S3Properties(
        URI endpoint,
        @DefaultValue("us-east-1") String region,
        String accessKey,
        String secretKey,
        String bucket,
        @DefaultValue("false") boolean pathStyle) {

    public S3Properties {
        // an empty ERASURE_S3_ENDPOINT means "real AWS", not a relative URI
        endpoint = endpoint == null || endpoint.toString().isBlank() ? null : endpoint;
        region = blankToNull(region);
        accessKey = blankToNull(accessKey);
        secretKey = blankToNull(secretKey);
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException(
                    "erasure.s3.bucket is required: set it to the platform bucket, e.g. erasure.s3.bucket=erasure");
        }
        if (region == null) {
            throw new IllegalArgumentException(
                    "erasure.s3.region must not be blank: leave it unset for us-east-1 or name the bucket's region");
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("erasure.s3.access-key and erasure.s3.secret-key go together: set both, "
                    + "or neither to use the AWS default credentials chain");
        }
    }

    /** Whether static credentials were configured (otherwise the AWS default credentials chain applies). */
    public boolean hasStaticCredentials() {
        return accessKey != null;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    @Override
    public String toString() {
        // never log the secret
        return "S3Properties[endpoint=" + endpoint + ", region=" + region + ", accessKey=" + accessKey + ", secretKey="
                + (secretKey == null ? null : "******") + ", bucket=" + bucket + ", pathStyle=" + pathStyle + "]";
    }
}
