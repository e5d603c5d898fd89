package io.erasure.store.s3.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.record.ColumnValue;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectSnapshotTest {

    private static final ObjectSnapshot RETAINED = new ObjectSnapshot(
            "exports/1.bin",
            "\"e-2\"",
            Instant.parse("2024-01-31T02:00:07Z"),
            300_000,
            "application/x-parquet",
            Map.of("owner", "billing"),
            Map.of("contentEncoding", "gzip"),
            null,
            "erasure",
            "retained/exports/abc/e-2");

    @Test
    void aSnapshotSurvivesAJsonRoundTripWhereNumbersComeBackAsAnyNumber() {
        Map<String, Object> json = new HashMap<>(RETAINED.toMap());
        json.put("size", 300_000);

        ObjectSnapshot back = ObjectSnapshot.fromColumn(ColumnValue.of("object_3", json));

        assertThat(back).isEqualTo(RETAINED);
        assertThat(RETAINED.toColumn(3).name()).isEqualTo("object_3");
    }

    @Test
    void anInlineSnapshotCarriesItsContent() {
        ObjectSnapshot inline = new ObjectSnapshot(
                "exports/1.json",
                "\"e\"",
                Instant.EPOCH,
                2,
                "application/json",
                Map.of(),
                Map.of(),
                "e30=",
                null,
                null);

        assertThat(inline.toMap()).containsEntry("base64", "e30=").doesNotContainKey("retainedRef");
        assertThat(new String(ObjectSnapshot.fromColumn(inline.toColumn(0)).content()))
                .isEqualTo("{}");
    }

    @Test
    void aSnapshotNeedsExactlyOneOfContentAndRetainedCopy() {
        assertThatThrownBy(() -> new ObjectSnapshot("k", "\"e\"", Instant.EPOCH, 1, null, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one");
        assertThatThrownBy(() -> ObjectSnapshot.fromColumn(ColumnValue.of("object_0", "not a map")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an S3 object snapshot");
        assertThatThrownBy(() -> ObjectSnapshot.fromColumn(ColumnValue.of("object_0", Map.of("key", "k"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lacks 'etag'");
    }
}
