package io.erasure.backup.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.BackupLocation;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

class BackupBucketIT {

    static final S3Engine ENGINE = LocalEngines.s3();
    static final S3Client S3 =
            S3Clients.create(ENGINE.endpoint(), ENGINE.region(), ENGINE.accessKey(), ENGINE.secretKey(), true);
    final BackupBucket bucket = new BackupBucket(S3, ENGINE.bucket());
    final String dataset = "ds-" + UUID.randomUUID().toString().substring(0, 8);
    final BackupLocation location = S3Layout.defaultBackupLocation(dataset, BackupFormat.JSONL_GZIP);

    @Test
    void theNewestSnapshotWithAManifestIsTheLatestComplete() throws IOException {
        BackupManifest older = writeSnapshot("20240130T020000Z", 3);
        writeSnapshot("20240131T020000Z", 2);
        // newest, still being exported: parts but no manifest
        S3.putObject(
                r -> r.bucket(ENGINE.bucket()).key(S3Layout.partKey(location, "20240201T020000Z", 0)),
                RequestBody.fromString("x"));
        S3.deleteObject(r -> r.bucket(ENGINE.bucket()).key(S3Layout.manifestKey(location, "20240131T020000Z")));

        assertThat(bucket.snapshots(location))
                .containsExactly("20240201T020000Z", "20240131T020000Z", "20240130T020000Z");
        assertThat(bucket.latestCompleteSnapshot(location)).contains("20240130T020000Z");
        String manifestKey = S3Layout.manifestKey(location, "20240130T020000Z");
        assertThat(bucket.readManifest(manifestKey)).isEqualTo(older);
        ManifestPart part = older.parts().get(1);
        try (PartReader reader = bucket.readPart(older, manifestKey, part)) {
            assertThat(reader.readAll()).hasSize(3);
        }
    }

    @Test
    void aMissingPartOrManifestIsAnIntegrityFailureNamingTheKey() throws IOException {
        BackupManifest manifest = writeSnapshot("20240130T020000Z", 1);
        String partKey = S3Layout.partKey(location, "20240130T020000Z", 1);
        S3.deleteObject(r -> r.bucket(ENGINE.bucket()).key(partKey));

        assertThatThrownBy(() -> bucket.readPart(
                        manifest,
                        S3Layout.manifestKey(location, "20240130T020000Z"),
                        manifest.parts().get(1)))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("part " + partKey + " is missing");
        assertThatThrownBy(() -> bucket.readManifest(S3Layout.manifestKey(location, "20240101T000000Z")))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("manifest " + S3Layout.manifestKey(location, "20240101T000000Z") + " is missing");
    }

    @Test
    void aCutoffLaterThanTheManifestsUploadIsRefused() throws IOException {
        BackupManifest honest = writeSnapshot("20240130T020000Z", 1);
        // nanoseconds written as micros: year ~55,000
        long nanos = Instant.now().toEpochMilli() * 1_000_000L;
        BackupManifest nanosAsMicros = new BackupManifest(
                dataset, "20240131T020000Z", honest.format(), honest.schema(), nanos, honest.parts());
        bucket.writeManifest(location, nanosAsMicros);
        // ten minutes ahead of its own upload: a clock far off
        long ahead = Instant.now().plus(Duration.ofMinutes(10)).toEpochMilli() * 1_000L;
        bucket.writeManifest(
                location,
                new BackupManifest(
                        dataset, "20240201T020000Z", honest.format(), honest.schema(), ahead, honest.parts()));

        for (String snapshot : List.of("20240131T020000Z", "20240201T020000Z")) {
            String key = S3Layout.manifestKey(location, snapshot);
            assertThatThrownBy(() -> bucket.readManifest(key))
                    .isInstanceOf(BackupIntegrityException.class)
                    .hasMessageStartingWith("manifest " + key + " has cutoffMicros ")
                    .hasMessageContaining("later than its upload");
        }
        assertThat(bucket.readManifest(S3Layout.manifestKey(location, "20240130T020000Z")))
                .isEqualTo(honest);
    }

    @Test
    void multipartPartsAreCompleteAndAnAbortedOneLeavesNothing() throws IOException {
        String key = "backups/" + dataset + "/big.bin";
        byte[] data = new byte[MultipartUploadStream.DEFAULT_CHUNK_SIZE * 2 + 12345];
        new Random(7).nextBytes(data);
        try (MultipartUploadStream out = new MultipartUploadStream(S3, ENGINE.bucket(), key)) {
            for (int i = 0; i < data.length; i += 100_000) {
                out.write(data, i, Math.min(100_000, data.length - i));
            }
        }
        assertThat(S3.getObjectAsBytes(r -> r.bucket(ENGINE.bucket()).key(key)).asByteArray())
                .isEqualTo(data);

        String aborted = "backups/" + dataset + "/aborted.bin";
        MultipartUploadStream out = new MultipartUploadStream(S3, ENGINE.bucket(), aborted);
        out.write(data);
        out.abort();
        assertThat(bucket.exists(aborted)).isFalse();
        assertThat(S3.listMultipartUploads(r -> r.bucket(ENGINE.bucket()).prefix(aborted))
                        .uploads())
                .isEmpty();
    }

    private BackupManifest writeSnapshot(String snapshot, int rowsPerPart) throws IOException {
        List<ManifestPart> parts = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            PartWriter writer = PartWriter.toS3(
                    S3,
                    ENGINE.bucket(),
                    S3Layout.partKey(location, snapshot, p),
                    BackupFormat.JSONL_GZIP,
                    PartFormatTest.COLUMNS,
                    List.of());
            for (BackupRow row : PartFormatTest.rows().subList(0, rowsPerPart)) {
                writer.write(row);
            }
            parts.add(writer.finish());
        }
        BackupManifest manifest = new BackupManifest(
                dataset, snapshot, BackupFormat.JSONL_GZIP, PartFormatTest.SCHEMA, 1_706_666_395_000_000L, parts);
        bucket.writeManifest(location, manifest);
        return manifest;
    }
}
