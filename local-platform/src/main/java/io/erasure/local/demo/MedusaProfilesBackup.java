package io.erasure.local.demo;

import io.erasure.backup.export.BackupExporterMain;
import io.erasure.backup.format.BackupBucket;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.MedusaUpload;
import io.erasure.model.dataset.BackupLocation;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Backs {@code demo.member_profiles} up the way a Cassandra team with cassandra-medusa would: a snapshot of the node,
 * laid out under {@link #LOCATION} as Medusa lays a backup out (schema first, SSTables with their MD5s in the
 * manifest, written last). The audit reads the SSTables where they lie; the platform's exporter is not involved.
 */
final class MedusaProfilesBackup {

    /** The demo cluster's Medusa storage prefix, in the platform bucket. */
    static final BackupLocation LOCATION = BackupLocation.medusa("backups/medusa/");

    /** The demo cluster's one node, as Medusa names it. */
    static final String NODE = "cassandra-1.demo.local";

    private MedusaProfilesBackup() {}

    /**
     * Takes a new Medusa backup of the demo keyspace's profiles, named by the time, so every demo run audits its own.
     *
     * @param options the exporter's S3 options ({@code s3-endpoint}, {@code s3-bucket}...)
     */
    static String backUp(Map<String, String> options, CassandraEngine cassandra) throws Exception {
        String name = "demo-" + System.currentTimeMillis();
        try (S3Client s3 = BackupExporterMain.s3Client(options)) {
            BackupBucket bucket = BackupExporterMain.bucket(options, s3);
            MedusaUpload.backUp(
                    cassandra,
                    (key, bytes) -> s3.putObject(b -> b.bucket(bucket.bucket()).key(key), RequestBody.fromBytes(bytes)),
                    LOCATION.prefix(),
                    name,
                    NODE,
                    "demo",
                    "member_profiles");
        }
        return name;
    }
}
