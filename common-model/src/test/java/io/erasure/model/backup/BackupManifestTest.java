package io.erasure.model.backup;

import static io.erasure.model.Fixtures.CUTOFF;
import static io.erasure.model.Fixtures.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.KeyColumns;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackupManifestTest {

    private static final String SHA = "0123456789abcdef".repeat(4);
    private static final BackupSchema SCHEMA = new BackupSchema(
            List.of(
                    new ColumnSchema("customer_id", "bigint"),
                    new ColumnSchema("order_id", "text"),
                    new ColumnSchema("total", "int")),
            KeyColumns.of(List.of("customer_id"), List.of("order_id")),
            "customer_id");

    private static BackupManifest manifest(List<ManifestPart> parts) {
        return new BackupManifest(
                "orders", "20240131T020000Z", BackupFormat.JSONL_GZIP, SCHEMA, CUTOFF.micros(), parts);
    }

    @Test
    void roundTripsAndSumsRows() {
        BackupManifest manifest = manifest(List.of(
                new ManifestPart("part-00000.jsonl.gz", 10, SHA), new ManifestPart("part-00001.jsonl.gz", 5, SHA)));
        String json = JSON.writeValueAsString(manifest);
        assertThat(JSON.readValue(json, BackupManifest.class)).isEqualTo(manifest);
        assertThat(JSON.readTree(json).get("cutoffMicros").asLong()).isEqualTo(CUTOFF.micros());
        assertThat(manifest.totalRows()).isEqualTo(15);
        assertThat(manifest.cutoff()).isEqualTo(CUTOFF);
    }

    @Test
    void partsNeedAFullSha256AndTheManifestFormat() {
        assertThatThrownBy(() -> new ManifestPart("part-00000.jsonl.gz", 1, "abc"))
                .hasMessageStartingWith("parts.sha256 of 'part-00000.jsonl.gz' must be 64 lower-case hex characters");
        assertThatThrownBy(() -> manifest(List.of(new ManifestPart("part-00000.csv", 1, SHA))))
                .hasMessageContaining("must end with .jsonl.gz");
        assertThatThrownBy(() -> manifest(List.of(
                        new ManifestPart("part-00000.jsonl.gz", 1, SHA),
                        new ManifestPart("part-00000.jsonl.gz", 1, SHA))))
                .hasMessage("parts lists part 0 twice");
    }

    @Test
    void schemaMustContainKeyAndIdentifierColumns() {
        assertThatThrownBy(() -> new BackupSchema(
                        List.of(new ColumnSchema("order_id", "text")),
                        KeyColumns.of(List.of("customer_id"), List.of("order_id")),
                        "order_id"))
                .hasMessage("schema.keyColumns names 'customer_id' which is not in schema.columns");
        assertThatThrownBy(() -> new BackupSchema(SCHEMA.columns(), SCHEMA.keyColumns(), "email"))
                .hasMessage("schema.identifierColumn 'email' is not in schema.columns");
    }

    @Test
    void snapshotAndCutoffAreChecked() {
        assertThatThrownBy(() -> new BackupManifest("orders", "yesterday", BackupFormat.CSV, SCHEMA, 1, List.of()))
                .hasMessageStartingWith("snapshot must be a UTC time");
        assertThatThrownBy(
                        () -> new BackupManifest("orders", "20240131T020000Z", BackupFormat.CSV, SCHEMA, 0, List.of()))
                .hasMessage("cutoffMicros must be > 0, got 0");
    }
}
