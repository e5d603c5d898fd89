package io.erasure.store.s3;

import static io.erasure.store.s3.TestS3.exists;
import static io.erasure.store.s3.TestS3.key;
import static io.erasure.store.s3.TestS3.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What {@code checkDataset} refuses, and that a refused dataset's objects are never touched. */
class DatasetCheckIT {

    private static final String BUCKET = "checked-owner";
    private static StoreAdapter guarded;

    @BeforeAll
    static void open() {
        TestS3.createBucket(BUCKET);
        guarded = TestS3.open(BUCKET, Map.of("key-prefixes", "exports/, shared/erasure/"));
    }

    @AfterAll
    static void close() {
        guarded.close();
    }

    @Test
    void aTemplateOutsideTheAllowedKeyPrefixesIsRefusedAndItsObjectsAreNeverTouched() {
        DatasetSpec outside = TestS3.spec("private-profiles", "private/{customer_id}.json");
        put(BUCKET, "private/40.json", "{}");

        assertThatThrownBy(() -> guarded.checkDataset(outside))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("'private/{customer_id}.json'")
                .hasMessageContaining("[exports/, shared/erasure/]")
                .hasMessageContaining("erasure.connections.s3-test.settings.key-prefixes");
        assertThatThrownBy(() -> guarded.planDelete(
                        new DeleteBatch(outside, "batch-outside", TestS3.serverCutoff(), List.of(key(40)))))
                .isInstanceOf(StoreException.Fatal.class);
        assertThat(exists(BUCKET, "private/40.json")).isTrue();
    }

    @Test
    void templatesUnderAnAllowedPrefixAreAccepted() {
        assertThatCode(() -> guarded.checkDataset(TestS3.spec("exports-plain", "exports/{customer_id}.json")))
                .doesNotThrowAnyException();
        assertThatCode(() -> guarded.checkDataset(TestS3.spec("shared-prefix", "shared/erasure/{customer_id}/")))
                .doesNotThrowAnyException();
        // the literal part must lie inside the allowed prefix, not merely share its first characters
        assertThatThrownBy(() -> guarded.checkDataset(TestS3.spec("shared-other", "shared/{customer_id}/")))
                .isInstanceOf(StoreException.Fatal.class);
    }

    @Test
    void aMissingBucketIsFatalNamingIt() {
        try (StoreAdapter adapter = TestS3.open("no-such-owner-bucket", Map.of())) {
            assertThatThrownBy(() -> adapter.checkDataset(TestS3.spec("exports-nowhere", "exports/{customer_id}.json")))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("bucket 'no-such-owner-bucket'")
                    .hasMessageContaining("does not exist")
                    .hasMessageContaining("erasure.connections.s3-test.settings.bucket");
        }
    }

    @Test
    void aMissingRetainedBucketIsFatalNamingIt() {
        try (StoreAdapter adapter = TestS3.open(BUCKET, Map.of("retained-bucket", "no-such-retained-bucket"))) {
            assertThatThrownBy(
                            () -> adapter.checkDataset(TestS3.spec("exports-retained", "exports/{customer_id}.json")))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("bucket 'no-such-retained-bucket'")
                    .hasMessageContaining("erasure.connections.s3-test.settings.retained-bucket");
        }
    }

    @Test
    void wrongCredentialsAreFatalWithTheFix() {
        try (StoreAdapter adapter = TestS3.open(BUCKET, Map.of("secret-key", "not-the-secret"))) {
            assertThatThrownBy(() -> adapter.checkDataset(TestS3.spec("exports-denied", "exports/{customer_id}.json")))
                    .isInstanceOf(StoreException.Fatal.class)
                    .hasMessageContaining("403")
                    .hasMessageContaining("access-key/secret-key");
        }
    }

    @Test
    void anUnreachableServerIsRetriable() {
        try (StoreAdapter adapter =
                TestS3.open(BUCKET, Map.of("endpoint", "http://127.0.0.1:9", "call-timeout-ms", "3000"))) {
            assertThatThrownBy(() -> adapter.checkDataset(TestS3.spec("exports-offline", "exports/{customer_id}.json")))
                    .isInstanceOf(StoreException.Retriable.class);
        }
    }

    @Test
    void theLoadSignalIsIdleBecauseS3PublishesNone() {
        LoadSignal signal = guarded.loadSignal();

        assertThat(signal.utilization()).isZero();
        assertThat(signal.parts()).isEmpty();
    }
}
