package io.erasure.backup.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.dataset.BackupFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackupJsonTest {

    @Test
    void manifestsRoundTrip() {
        BackupManifest manifest = new BackupManifest(
                "orders",
                "20240131T020000Z",
                BackupFormat.JSONL_GZIP,
                PartFormatTest.SCHEMA,
                1_706_666_395_000_000L,
                List.of(new ManifestPart("part-00000.jsonl.gz", 12, "ab".repeat(32))));

        byte[] json = BackupJson.writeManifest(manifest);

        assertThat(BackupJson.readManifest(json, "backups/orders/20240131T020000Z/manifest.json"))
                .isEqualTo(manifest);
        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"cutoffMicros\" : 1706666395000000");
    }

    @Test
    void anInvalidManifestFailsNamingItsKeyAndTheField() {
        String json = """
                {"dataset":"orders","snapshot":"20240131T020000Z","format":"JSONL_GZIP",
                 "schema":{"columns":[{"name":"order_id","type":"text"}],
                           "keyColumns":{"partition":["order_id"]},"identifierColumn":"customer_id"},
                 "cutoffMicros":1,"parts":[]}
                """;

        assertThatThrownBy(() -> BackupJson.readManifest(
                        json.getBytes(StandardCharsets.UTF_8), "backups/orders/x/manifest.json"))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("manifest backups/orders/x/manifest.json is not a valid backup manifest:"
                        + " schema.identifierColumn 'customer_id' is not in schema.columns");
    }
}
