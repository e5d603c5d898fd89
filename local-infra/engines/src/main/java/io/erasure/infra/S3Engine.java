package io.erasure.infra;

import io.erasure.infra.process.FreePorts;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * An S3-compatible server (s3proxy on the {@code filesystem-nio2} backend) with the platform bucket
 * created. Clients need path-style access and checksums only "when required" (see INFRA.md).
 */
public final class S3Engine extends HostedEngine {

    public static final String BUCKET = "erasure";
    public static final String ACCESS_KEY = "erasure-local";
    public static final String SECRET_KEY = "erasure-local-secret";
    public static final String REGION = "us-east-1";

    public S3Engine(int port, EngineFolder folder) {
        super("s3", port, folder, List.of(BUCKET, ACCESS_KEY, SECRET_KEY));
    }

    static S3Engine startForTests() {
        return new S3Engine(FreePorts.next(), EngineFolder.temporary("s3"));
    }

    public URI endpoint() {
        return URI.create("http://" + host() + ":" + port());
    }

    public String bucket() {
        return BUCKET;
    }

    public String accessKey() {
        return ACCESS_KEY;
    }

    public String secretKey() {
        return SECRET_KEY;
    }

    public String region() {
        return REGION;
    }

    /** Object copies kept by owners in {@code bucket}; large deleted objects are retained in the platform bucket. */
    public Map<String, String> storeConnectionProperties(String ref, String bucket) {
        String prefix = "erasure.connections[" + ref + "].";
        return Map.of(
                prefix + "kind", "S3_OBJECT",
                prefix + "settings[endpoint]", endpoint().toString(),
                prefix + "settings[region]", REGION,
                prefix + "settings[bucket]", bucket,
                prefix + "settings[access-key]", ACCESS_KEY,
                prefix + "settings[secret-key]", SECRET_KEY,
                prefix + "settings[path-style]", "true",
                prefix + "settings[retained-bucket]", BUCKET);
    }

    @Override
    public Map<String, String> springProperties() {
        return Map.of(
                "erasure.s3.endpoint", endpoint().toString(),
                "erasure.s3.region", REGION,
                "erasure.s3.access-key", ACCESS_KEY,
                "erasure.s3.secret-key", SECRET_KEY,
                "erasure.s3.bucket", BUCKET,
                "erasure.s3.path-style", "true");
    }
}
