package io.erasure.backup.format;

import io.erasure.model.backup.BackupManifest;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupLocation;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Backups in the platform bucket: finding a location's newest complete snapshot, reading and
 * writing manifests, opening parts. A snapshot is complete once its {@code manifest.json} exists;
 * exporters write it last, so a snapshot without one is still being written (or was abandoned)
 * and is never read.
 */
public final class BackupBucket {

    /** How far a cut-off may be ahead of the upload or of now before it is refused (clocks differ a little). */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(2);

    private final S3Client s3;
    private final String bucket;

    public BackupBucket(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    public S3Client s3() {
        return s3;
    }

    public String bucket() {
        return bucket;
    }

    /** Snapshot names under {@code location}, newest first, complete or not. */
    public List<String> snapshots(BackupLocation location) {
        return s3
                .listObjectsV2Paginator(
                        r -> r.bucket(bucket).prefix(location.prefix()).delimiter("/"))
                .commonPrefixes()
                .stream()
                .map(CommonPrefix::prefix)
                .map(p -> p.substring(location.prefix().length(), p.length() - 1))
                .filter(BackupBucket::isSnapshotName)
                .sorted(Comparator.reverseOrder())
                .toList();
    }

    /** The newest snapshot of {@code location} that has a manifest. */
    public Optional<String> latestCompleteSnapshot(BackupLocation location) {
        for (String snapshot : snapshots(location)) {
            if (exists(S3Layout.manifestKey(location, snapshot))) {
                return Optional.of(snapshot);
            }
        }
        return Optional.empty();
    }

    /**
     * Reads and validates {@code manifestKey}.
     *
     * @throws BackupIntegrityException if it is missing or invalid, or names another snapshot than its folder
     */
    public BackupManifest readManifest(String manifestKey) {
        ResponseBytes<GetObjectResponse> object;
        try {
            object = s3.getObjectAsBytes(r -> r.bucket(bucket).key(manifestKey));
        } catch (NoSuchKeyException e) {
            throw new BackupIntegrityException("manifest " + manifestKey + " is missing");
        }
        BackupManifest manifest = BackupJson.readManifest(object.asByteArray(), manifestKey);
        requireCutoffBefore(manifest, manifestKey, object.response().lastModified(), "its upload");
        String folder = manifestKey.substring(0, manifestKey.length() - S3Layout.MANIFEST.length() - 1);
        String snapshot = folder.substring(folder.lastIndexOf('/') + 1);
        if (!manifest.snapshot().equals(snapshot)) {
            throw new BackupIntegrityException("manifest " + manifestKey + " names snapshot " + manifest.snapshot()
                    + " but lies in folder " + snapshot + "; it was copied from another snapshot");
        }
        return manifest;
    }

    /**
     * A cut-off after the moment the manifest was uploaded (or after now) cannot be an export's start: it is a unit
     * error (e.g. nanoseconds written as micros) or a clock far off. With it nothing would count as written after
     * the backup, and Cassandra tombstones would land in the future and hide later writes; refused.
     *
     * @throws BackupIntegrityException if {@code cutoffMicros} is later than {@code moment} plus {@link #CLOCK_SKEW}
     */
    public static void requireCutoffBefore(BackupManifest manifest, String manifestKey, Instant moment, String what) {
        if (moment == null) {
            return;
        }
        Instant cutoff = manifest.cutoff().toInstant();
        if (cutoff.isAfter(moment.plus(CLOCK_SKEW))) {
            throw new BackupIntegrityException("manifest " + manifestKey + " has cutoffMicros "
                    + manifest.cutoffMicros()
                    + " (" + cutoff + "), later than " + what + " at " + moment + ": a cut-off is the export's start"
                    + " minus a clock-skew margin, in microseconds since the epoch; fix the exporter and write the"
                    + " snapshot again");
        }
    }

    public void writeManifest(BackupLocation location, BackupManifest manifest) {
        byte[] json = BackupJson.writeManifest(manifest);
        s3.putObject(
                r -> r.bucket(bucket)
                        .key(S3Layout.manifestKey(location, manifest.snapshot()))
                        .contentType("application/json"),
                RequestBody.fromBytes(json));
    }

    /** The key of {@code part} of the snapshot whose manifest is {@code manifestKey}. */
    public static String partKey(String manifestKey, ManifestPart part) {
        return manifestKey.substring(0, manifestKey.length() - S3Layout.MANIFEST.length()) + part.name();
    }

    /**
     * The stored (compressed) bytes of a part, to be read once and closed.
     *
     * @throws BackupIntegrityException if the part is missing
     */
    public ResponseInputStream<GetObjectResponse> openPart(String partKey) {
        try {
            return s3.getObject(r -> r.bucket(bucket).key(partKey));
        } catch (NoSuchKeyException e) {
            throw new BackupIntegrityException("part " + partKey + " is missing: the manifest lists it but the object"
                    + " does not exist; the snapshot is incomplete or was partly deleted");
        }
    }

    /** Opens a part for a full read with its checksum and row count checked at the end. */
    public PartReader readPart(BackupManifest manifest, String manifestKey, ManifestPart part) {
        InputStream raw = openPart(partKey(manifestKey, part));
        return PartReader.open(raw, manifest.format(), manifest.schema(), part);
    }

    public boolean exists(String key) {
        try {
            s3.headObject(r -> r.bucket(bucket).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    private static boolean isSnapshotName(String name) {
        try {
            S3Layout.parseSnapshot(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
