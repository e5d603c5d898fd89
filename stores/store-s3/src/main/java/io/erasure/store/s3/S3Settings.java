package io.erasure.store.s3;

import io.erasure.store.spi.SettingsSpec;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;

/**
 * The settings of one S3 connection ({@code erasure.connections.<ref>.settings.*}).
 *
 * @param ref                 the connection's name, for messages
 * @param endpoint            {@code endpoint}: an S3-compatible server (MinIO, s3proxy); null for AWS itself
 * @param region              {@code region}
 * @param bucket              {@code bucket}: the owner's bucket that the datasets' key templates address
 * @param accessKey           {@code access-key} (with {@code secret-key}); null to use the default credential chain
 * @param secretKey           {@code secret-key}
 * @param pathStyle           {@code path-style}: path-style requests (true for s3proxy and MinIO; default false)
 * @param retainedBucket      {@code retained-bucket}: the platform's bucket where objects above
 *                            {@code inline-max-bytes} are copied before they are deleted; null if not configured
 *                            (such objects are then refused, so nothing is deleted without a recoverable copy)
 * @param retainedPrefix      {@code retained-prefix} (default {@code retained/}): key prefix of those copies,
 *                            swept after 30 days with the rest of {@code retained/}
 * @param inlineMaxBytes      {@code inline-max-bytes} (default 256 KiB): objects up to this size travel inside the
 *                            deletion record as base64
 * @param maxObjectsPerKey    {@code max-objects-per-key} (default 10,000): a prefix template holding more objects
 *                            for one key is refused rather than listed without bound
 * @param keyPrefixes         {@code key-prefixes}: comma-separated allow-list set by operators; every template's
 *                            literal prefix must start with one of them; empty = any key of the bucket
 * @param conditionalRequests {@code conditional-requests} (default true): send the ETag read at plan time with each
 *                            delete and {@code If-None-Match: *} with each restore, so the server itself refuses a
 *                            delete of a changed object or a restore over an existing one (AWS S3). Set false for
 *                            servers that do not implement them (s3proxy 2.6 ignores both headers on single
 *                            requests and fails DeleteObjects carrying ETags with a 500, which looks retriable);
 *                            the adapter then relies on its own re-reads, see
 *                            {@link S3ObjectAdapter}
 * @param allowVersionedBucket {@code allow-versioned-bucket} (default false): accept a bucket with versioning on,
 *                            where a delete only adds a delete marker and earlier versions keep the data; set true
 *                            only where lifecycle rules expire noncurrent versions
 * @param callTimeoutMs       {@code call-timeout-ms} (default 30,000): the most one S3 call may take, retries included
 */
public record S3Settings(
        String ref,
        URI endpoint,
        String region,
        String bucket,
        String accessKey,
        String secretKey,
        boolean pathStyle,
        String retainedBucket,
        String retainedPrefix,
        int inlineMaxBytes,
        int maxObjectsPerKey,
        List<String> keyPrefixes,
        boolean conditionalRequests,
        boolean allowVersionedBucket,
        int callTimeoutMs) {

    /** Every setting an S3 object connection may have. */
    public static final SettingsSpec SPEC = SettingsSpec.of(
            "endpoint",
            "region",
            "bucket",
            "access-key",
            "secret-key",
            "path-style",
            "retained-bucket",
            "retained-prefix",
            "inline-max-bytes",
            "max-objects-per-key",
            "key-prefixes",
            "conditional-requests",
            "allow-versioned-bucket",
            "call-timeout-ms");

    public static final int DEFAULT_INLINE_MAX_BYTES = 256 * 1024;
    public static final int DEFAULT_MAX_OBJECTS_PER_KEY = 10_000;
    public static final String DEFAULT_RETAINED_PREFIX = "retained/";

    public S3Settings {
        requireBucketName("bucket", bucket);
        if (retainedBucket != null) {
            requireBucketName("retained-bucket", retainedBucket);
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new StoreException.Fatal("connection '" + ref + "' must set both 'access-key' and 'secret-key', or"
                    + " neither to use the default AWS credential chain");
        }
        if (retainedPrefix == null
                || retainedPrefix.isEmpty()
                || !retainedPrefix.endsWith("/")
                || retainedPrefix.startsWith("/")) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'retained-prefix' must be a key prefix"
                    + " ending with '/' such as 'retained/', got '" + retainedPrefix + "'");
        }
        positive(ref, "inline-max-bytes", inlineMaxBytes);
        positive(ref, "max-objects-per-key", maxObjectsPerKey);
        positive(ref, "call-timeout-ms", callTimeoutMs);
        keyPrefixes = List.copyOf(keyPrefixes);
    }

    public static S3Settings from(StoreConnection connection) {
        String ref = connection.ref();
        return new S3Settings(
                ref,
                connection.setting("endpoint").map(value -> uri(ref, value)).orElse(null),
                connection.required("region"),
                connection.required("bucket"),
                connection.setting("access-key").orElse(null),
                connection.setting("secret-key").orElse(null),
                connection.booleanSetting("path-style", false),
                connection.setting("retained-bucket").orElse(null),
                connection.setting("retained-prefix").orElse(DEFAULT_RETAINED_PREFIX),
                connection.intSetting("inline-max-bytes", DEFAULT_INLINE_MAX_BYTES),
                connection.intSetting("max-objects-per-key", DEFAULT_MAX_OBJECTS_PER_KEY),
                connection.setting("key-prefixes").map(S3Settings::list).orElse(List.of()),
                connection.booleanSetting("conditional-requests", true),
                connection.booleanSetting("allow-versioned-bucket", false),
                connection.intSetting("call-timeout-ms", 30_000));
    }

    /** Where a connection's error messages point: {@code erasure.connections.<ref>.settings.<name>}. */
    public String settingName(String name) {
        return StoreConnection.property(ref, name);
    }

    @Override
    public String toString() {
        return "S3Settings[ref=" + ref + ", endpoint=" + endpoint + ", region=" + region + ", bucket=" + bucket
                + ", accessKey=" + (accessKey == null ? "(default chain)" : accessKey) + ", secretKey=***, pathStyle="
                + pathStyle + ", retainedBucket=" + retainedBucket + ", retainedPrefix=" + retainedPrefix
                + ", inlineMaxBytes=" + inlineMaxBytes + ", maxObjectsPerKey=" + maxObjectsPerKey + ", keyPrefixes="
                + keyPrefixes + ", conditionalRequests=" + conditionalRequests + ", allowVersionedBucket="
                + allowVersionedBucket + ", callTimeoutMs=" + callTimeoutMs + "]";
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static URI uri(String ref, String value) {
        try {
            URI uri = new URI(value.trim());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(value, "not an absolute URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new StoreException.Fatal("connection '" + ref + "' setting 'endpoint' must be an absolute URL such as"
                    + " http://localhost:9000, got '" + value + "'");
        }
    }

    private static void requireBucketName(String setting, String bucket) {
        // S3's bucket naming rules (lower-case letters, digits, '.', '-'; 3-63 characters)
        if (bucket == null || !bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new StoreException.Fatal("setting '" + setting + "' must be an S3 bucket name (3-63 characters:"
                    + " a-z, 0-9, '.' and '-'), got '" + bucket + "'");
        }
    }

    private static void positive(String ref, String name, int value) {
        if (value < 1) {
            throw new StoreException.Fatal(
                    "connection '" + ref + "' setting '" + name + "' must be >= 1, got " + value);
        }
    }
}
