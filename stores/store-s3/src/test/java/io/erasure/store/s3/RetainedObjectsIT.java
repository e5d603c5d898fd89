package io.erasure.store.s3;

import static io.erasure.store.s3.TestS3.exists;
import static io.erasure.store.s3.TestS3.key;
import static io.erasure.store.s3.TestS3.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.RestoreOutcome.Status;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Objects above {@code inline-max-bytes} (1 KiB here): copied to the platform's retained prefix before the delete,
 * restored from there byte-identical, with their content type and metadata, and only where absent.
 */
class RetainedObjectsIT {

    private static final String BUCKET = "retained-owner";
    private static final DatasetSpec SPEC = TestS3.spec("exports-large", "exports/{customer_id}.bin");
    private static final Map<String, String> METADATA = Map.of("owner", "billing", "schema", "v3");
    private static StoreAdapter adapter;

    @BeforeAll
    static void open() {
        TestS3.createBucket(BUCKET);
        adapter = TestS3.open(BUCKET, Map.of("inline-max-bytes", "1024"));
        adapter.checkDataset(SPEC);
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void aLargeObjectIsRetainedBeforeTheDeleteAndRestoredByteIdentical() {
        byte[] content = randomBytes(64 * 1024);
        put(BUCKET, "exports/20.bin", content, "application/x-parquet", METADATA);

        List<LiveRow> rows = adapter.readRows(SPEC, List.of(key(20)));
        Map<?, ?> logged = (Map<?, ?>) rows.get(0).columns().get(0).value();
        String retainedRef = (String) logged.get("retainedRef");
        DeleteOutcome deleted = deleteAtServerNow(20);

        assertThat(logged.get("base64")).isNull();
        assertThat(logged.get("size")).isEqualTo(65536L);
        assertThat(logged.get("retainedBucket")).isEqualTo(TestS3.engine().bucket());
        assertThat(retainedRef).startsWith("retained/exports-large/");
        assertThat(TestS3.get(TestS3.engine().bucket(), retainedRef))
                .get()
                .satisfies(copy -> assertThat(copy.asByteArray()).isEqualTo(content));
        assertThat(deleted.deleted()).isEqualTo(1);
        assertThat(exists(BUCKET, "exports/20.bin")).isFalse();

        RestoreOutcome restored = adapter.restore(SPEC, TestS3.recordsOf(SPEC, rows, TestS3.serverCutoff()));

        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(Status.RESTORED);
        ResponseBytes<GetObjectResponse> back =
                TestS3.get(BUCKET, "exports/20.bin").orElseThrow();
        assertThat(back.asByteArray()).isEqualTo(content);
        assertThat(back.response().contentType()).isEqualTo("application/x-parquet");
        assertThat(back.response().metadata()).isEqualTo(METADATA);
    }

    @Test
    void aLargeObjectRewrittenAfterTheDeleteIsNotOverwrittenByTheRestore() {
        put(BUCKET, "exports/21.bin", randomBytes(4096), "application/octet-stream", METADATA);
        List<DeletionRecord> records =
                TestS3.recordsOf(SPEC, adapter.readRows(SPEC, List.of(key(21))), TestS3.serverCutoff());
        deleteAtServerNow(21);
        put(
                BUCKET,
                "exports/21.bin",
                "written after the delete".getBytes(StandardCharsets.UTF_8),
                "text/plain",
                Map.of());

        RestoreOutcome restored = adapter.restore(SPEC, records);

        assertThat(restored.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(Status.NEWER_DATA_KEPT);
        assertThat(TestS3.text(BUCKET, "exports/21.bin")).contains("written after the delete");
    }

    @Test
    void restoringTheSameRecordsTwiceRestoresOnce() {
        byte[] content = randomBytes(2048);
        put(BUCKET, "exports/22.bin", content, "application/octet-stream", METADATA);
        List<DeletionRecord> records =
                TestS3.recordsOf(SPEC, adapter.readRows(SPEC, List.of(key(22))), TestS3.serverCutoff());
        deleteAtServerNow(22);

        RestoreOutcome first = adapter.restore(SPEC, records);
        RestoreOutcome second = adapter.restore(SPEC, records);

        assertThat(first.records())
                .extracting(RestoreOutcome.RecordOutcome::status)
                .containsExactly(Status.RESTORED);
        assertThat(second.records()).singleElement().satisfies(outcome -> {
            assertThat(outcome.status()).isEqualTo(Status.NEWER_DATA_KEPT);
            assertThat(outcome.detail()).isEqualTo("already restored");
        });
        assertThat(TestS3.get(BUCKET, "exports/22.bin").orElseThrow().asByteArray())
                .isEqualTo(content);
    }

    @Test
    void withoutARetainedBucketALargeObjectIsRefusedBeforeAnythingIsDeleted() {
        put(BUCKET, "exports/23.bin", randomBytes(4096), "application/octet-stream", Map.of());
        try (StoreAdapter unretained = TestS3.open(BUCKET, Map.of("inline-max-bytes", "1024", "retained-bucket", ""))) {
            unretained.checkDataset(SPEC);

            assertThatThrownBy(() -> unretained.readRows(SPEC, List.of(key(23))))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("s3://retained-owner/exports/23.bin")
                    .hasMessageContaining("erasure.connections.s3-test.settings.retained-bucket");
        }
        assertThat(exists(BUCKET, "exports/23.bin")).isTrue();
    }

    private static DeleteOutcome deleteAtServerNow(long customerId) {
        return adapter.executeDelete(adapter.planDelete(
                new DeleteBatch(SPEC, "batch-" + customerId, TestS3.serverCutoff(), List.of(key(customerId)))));
    }

    private static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
