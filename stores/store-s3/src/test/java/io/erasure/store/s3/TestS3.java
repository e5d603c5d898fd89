package io.erasure.store.s3;

import static org.awaitility.Awaitility.await;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.s3.objects.StoredObject;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreAdapters;
import io.erasure.store.spi.StoreConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The shared s3proxy of the test JVM: owners' buckets created on it, adapters opened through the ServiceLoader, and
 * direct (adapter-independent) reads and writes. Adapters use the engine's platform bucket as their retained bucket.
 */
public final class TestS3 {

    private static final String CLOCK_PROBE = "test-clock-probe";
    private static S3Client client;

    private TestS3() {}

    public static S3Engine engine() {
        return LocalEngines.s3();
    }

    public static synchronized S3Client client() {
        if (client == null) {
            S3Engine s3 = engine();
            client = S3Client.builder()
                    .endpointOverride(s3.endpoint())
                    .region(Region.of(s3.region()))
                    .forcePathStyle(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .credentialsProvider(StaticCredentialsProvider.create(
                            AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())))
                    .build();
        }
        return client;
    }

    public static void createBucket(String bucket) {
        try {
            client().createBucket(b -> b.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException alreadyThere) {
            // created by an earlier test class of this JVM
        }
    }

    /**
     * An S3 connection on {@code bucket} as the services would configure it for s3proxy: path-style, no conditional
     * requests (s3proxy does not implement them), the platform bucket as retained bucket. A blank value in
     * {@code extra} removes a setting.
     */
    public static StoreConnection connection(String bucket, Map<String, String> extra) {
        S3Engine s3 = engine();
        Map<String, String> settings = new HashMap<>(Map.of(
                "endpoint",
                s3.endpoint().toString(),
                "region",
                s3.region(),
                "bucket",
                bucket,
                "access-key",
                s3.accessKey(),
                "secret-key",
                s3.secretKey(),
                "path-style",
                "true",
                "retained-bucket",
                s3.bucket(),
                "conditional-requests",
                "false"));
        settings.putAll(extra);
        return new StoreConnection("s3-test", StoreKind.S3_OBJECT, settings);
    }

    /** An adapter found the way services find it: by type, through META-INF/services. */
    public static StoreAdapter open(String bucket, Map<String, String> extra) {
        return StoreAdapters.load().open(connection(bucket, extra));
    }

    /**
     * A test class's owner bucket and its dataset, as a class-level extension ({@code @RegisterExtension static}):
     * before all tests the bucket is created and an adapter opened on it (no extra settings) that has checked the
     * dataset; after all, the adapter is closed.
     */
    public static final class OwnerBucket implements BeforeAllCallback, AfterAllCallback {

        private final String bucket;
        private final DatasetSpec spec;
        private StoreAdapter adapter;

        public OwnerBucket(String bucket, DatasetSpec spec) {
            this.bucket = bucket;
            this.spec = spec;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            createBucket(bucket);
            adapter = open(bucket, Map.of());
            adapter.checkDataset(spec);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            adapter.close();
        }

        public StoreAdapter adapter() {
            return adapter;
        }
    }

    /** An S3_OBJECT dataset keyed by {@code customer_id}, its rows at {@code template}. */
    public static DatasetSpec spec(String name, String template) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.S3_OBJECT)
                .connectionRef("s3-test")
                .namespace("exports")
                .table(name.replace('-', '_'))
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource("customers")
                .conditionalColumn(ConditionalColumn.none())
                .target(new CopyTarget.KeyTemplate(template))
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("exports")
                .build();
    }

    /** Deletion records as the deletion service writes them, from rows read before the delete. */
    public static List<DeletionRecord> recordsOf(DatasetSpec spec, List<LiveRow> rows, CutoffTimestamp cutoff) {
        DeletionTask task = DeletionTask.forRun(
                RunId.of("run-s3"), spec, rows.stream().map(LiveRow::key).toList(), cutoff);
        return rows.stream()
                .map(row -> DeletionRecord.of(task, "batch-1", row.key(), row.columns(), Instant.now()))
                .toList();
    }

    public static Map<String, Object> key(Object customerId) {
        return Map.of("customer_id", customerId);
    }

    public static void put(
            String bucket, String key, byte[] content, String contentType, Map<String, String> metadata) {
        client().putObject(
                        b -> b.bucket(bucket).key(key).contentType(contentType).metadata(metadata),
                        RequestBody.fromBytes(content));
    }

    public static void put(String bucket, String key, String content) {
        put(bucket, key, content.getBytes(StandardCharsets.UTF_8), "application/json", Map.of());
    }

    /** The object with its content, content type and metadata, or empty. */
    public static Optional<ResponseBytes<GetObjectResponse>> get(String bucket, String key) {
        try {
            return Optional.of(client().getObjectAsBytes(b -> b.bucket(bucket).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    public static boolean exists(String bucket, String key) {
        return get(bucket, key).isPresent();
    }

    public static Optional<String> text(String bucket, String key) {
        return get(bucket, key).map(ResponseBytes::asUtf8String);
    }

    /**
     * A cut-off at the end of the server's current second: every object written so far is at or before it, by the
     * clock that sets LastModified (the server's), whatever the precision.
     */
    public static CutoffTimestamp serverCutoff() {
        return new CutoffTimestamp(StoredObject.latestMicrosOf(serverNow()));
    }

    /** Waits (about a second, five at most) until the server's clock is in a later second than {@code cutoff}'s. */
    public static void awaitServerSecondAfter(CutoffTimestamp cutoff) {
        await("the S3 server's clock to move past " + cutoff)
                .atMost(Duration.ofSeconds(5))
                .until(() -> CutoffTimestamp.toMicros(serverNow()) > cutoff.micros());
    }

    /** The server's clock, as it sets LastModified: write a probe object and read its date back. */
    private static Instant serverNow() {
        String bucket = engine().bucket();
        client().putObject(
                        b -> b.bucket(bucket).key(CLOCK_PROBE),
                        RequestBody.fromString(Long.toString(System.nanoTime())));
        return client().headObject(b -> b.bucket(bucket).key(CLOCK_PROBE)).lastModified();
    }
}
