package io.erasure.backup.export;

import io.erasure.backup.format.BackupBucket;
import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.PartReader;
import io.erasure.backup.format.S3Clients;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ManifestPart;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/** The shared S3 engine and reading exported snapshots back with full verification. */
public final class ExporterTestKit {

    public static final S3Engine S3_ENGINE = LocalEngines.s3();
    public static final S3Client S3 = S3Clients.create(
            S3_ENGINE.endpoint(), S3_ENGINE.region(), S3_ENGINE.accessKey(), S3_ENGINE.secretKey(), true);
    public static final BackupBucket BUCKET = new BackupBucket(S3, S3_ENGINE.bucket());

    private ExporterTestKit() {}

    /** Every row of a snapshot, parts in manifest order, each part's SHA-256 and row count checked. */
    public static List<BackupRow> readAll(String manifestKey) throws IOException {
        BackupManifest manifest = BUCKET.readManifest(manifestKey);
        List<BackupRow> rows = new ArrayList<>();
        for (ManifestPart part : manifest.parts()) {
            try (PartReader reader = BUCKET.readPart(manifest, manifestKey, part)) {
                rows.addAll(reader.readAll());
            }
        }
        return rows;
    }
}
