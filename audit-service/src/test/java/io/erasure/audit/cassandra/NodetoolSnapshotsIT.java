package io.erasure.audit.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.audit.sstable.SSTableScan;
import io.erasure.audit.sstable.ScanResult;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.S3Clients;
import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.NodetoolSnapshotUpload;
import io.erasure.infra.S3Engine;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.DatasetSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Plain {@code nodetool snapshot} uploads of the real node, on the local S3, read by {@link ClusterBackupSource}: two
 * snapshots laid out as two replicas of one tag are merged (deletes held by one apply to the other's rows), the
 * cut-off is the earliest node's {@code created_at}; an upload that lacks a component is not complete and an older
 * snapshot is read; a damaged {@code Data.db} fails the unit against its {@code Digest.crc32}.
 */
class NodetoolSnapshotsIT {

    private static final S3Engine S3_ENGINE = LocalEngines.s3();
    private static final S3Client S3 = S3Clients.create(
            S3_ENGINE.endpoint(), S3_ENGINE.region(), S3_ENGINE.accessKey(), S3_ENGINE.secretKey(), true);
    private static final String KEYSPACE =
            "nodetool_snapshots_" + UUID.randomUUID().toString().substring(0, 8);
    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final String ALL = "tokens:" + Long.MIN_VALUE + ":" + Long.MAX_VALUE;

    private static CassandraEngine cassandra;
    private static CqlSession session;
    private static DatasetSpec accounts;

    private final ClusterBackupSource source = new ClusterBackupSource(
            S3, S3_ENGINE.bucket(), () -> SSTableScan.onRuntimeClasspath(Duration.ofMinutes(2), "256m"), 2, MARGIN);

    @BeforeAll
    static void table() {
        cassandra = LocalEngines.cassandra();
        session = AccountsTable.session(cassandra);
        AccountsTable.create(session, KEYSPACE);
        accounts = AccountsTable.spec(KEYSPACE, BackupLocation.nodetoolSnapshots("backups/snapshots/", 1));
    }

    @AfterAll
    static void close() {
        session.close();
        S3.close();
    }

    @Test
    void twoNodesOfOneTagAreMergedAsReplicasAndCutOffAtTheEarliestCreatedAt() throws Exception {
        String prefix = prefix();
        Instant before = Instant.now();
        upload(prefix, "daily", "10.0.0.1");
        BackupLocation location = BackupLocation.nodetoolSnapshots(prefix, 2);
        assertThatThrownBy(() -> source.plan(location, accounts, Instant.now()))
                .as("the first node's upload is not the cluster's snapshot")
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("no complete nodetool snapshot under s3://")
                .hasMessageContaining("'daily' has 1 of its 2 node folders");
        // the second replica holds the deletes of two of owner 1's accounts and owner 1's claim on account 2
        session.execute("DELETE FROM " + KEYSPACE + ".accounts WHERE account_id IN (1, 4)");
        session.execute("UPDATE " + KEYSPACE + ".accounts SET owner = 1 WHERE account_id = 2");
        TimeUnit.MILLISECONDS.sleep(20);
        upload(prefix, "daily", "10.0.0.2");

        ClusterBackupSource.Planned plan = source.plan(location, accounts, Instant.now());

        ClusterBackup backup = plan.backup();
        assertThat(backup.name()).isEqualTo("daily");
        assertThat(backup.nodes()).extracting(ClusterBackup.Node::fqdn).containsExactly("10.0.0.1", "10.0.0.2");
        assertThat(backup.started())
                .isBetween(before.minusSeconds(1), backup.nodes().get(1).started())
                .isEqualTo(backup.nodes().get(0).started());
        assertThat(plan.cutoffMicros()).isEqualTo(backup.cutoff(MARGIN).micros());
        List<Candidate> candidates = new ArrayList<>();
        long rows = 0;
        long deletedNotPurged = 0;
        for (String unit : plan.unitKeys()) {
            ScanResult result =
                    source.join(backup, location, accounts, unit, owners(1), Instant.now(), candidates::add);
            rows += result.rowsScanned();
            deletedNotPurged += result.deletedNotPurged();
        }
        assertThat(rows).as("each live row once, though both replicas hold it").isEqualTo(28);
        assertThat(deletedNotPurged).as("accounts 1 and 4, deleted").isEqualTo(2);
        assertThat(candidates)
                .extracting(c -> c.key().get("account_id").toString())
                .containsExactlyInAnyOrder(liveAccountsOf(1).toArray(String[]::new))
                .containsExactlyInAnyOrder("2", "7", "10", "13", "16", "19", "22", "25", "28");
    }

    @Test
    void aNewerUploadThatLacksAComponentIsNotCompleteAndTheOlderSnapshotIsRead() throws Exception {
        String prefix = prefix();
        upload(prefix, "monday", "10.0.0.1");
        TimeUnit.MILLISECONDS.sleep(20);
        List<String> tuesday = upload(prefix, "tuesday", "10.0.0.1");
        String statistics = tuesday.stream()
                .filter(k -> k.endsWith("-Statistics.db"))
                .findFirst()
                .orElseThrow();
        S3.deleteObject(b -> b.bucket(S3_ENGINE.bucket()).key(statistics));
        BackupLocation location = BackupLocation.nodetoolSnapshots(prefix, 1);

        assertThat(source.plan(location, accounts, Instant.now()).backup().name())
                .isEqualTo("monday");
        assertThatThrownBy(() -> source.read(location, "tuesday"))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("nodetool snapshot 'tuesday' is incomplete: node 10.0.0.1 has no "
                        + statistics.substring(statistics.lastIndexOf('/') + 1) + ", which its TOC.txt names");
    }

    @Test
    void aDamagedOrMissingDataFileFailsTheUnitNamingIt() throws Exception {
        String prefix = prefix();
        List<String> keys = upload(prefix, "daily", "10.0.0.1");
        BackupLocation location = BackupLocation.nodetoolSnapshots(prefix, 1);
        ClusterBackup backup = source.read(location, "daily");
        String data =
                keys.stream().filter(k -> k.endsWith("-Data.db")).findFirst().orElseThrow();
        byte[] bytes =
                S3.getObjectAsBytes(b -> b.bucket(S3_ENGINE.bucket()).key(data)).asByteArray();
        bytes[bytes.length / 2] ^= 0x5a;
        List<Candidate> candidates = new ArrayList<>();

        put(data, bytes);
        assertThatThrownBy(
                        () -> source.join(backup, location, accounts, ALL, owners(1), Instant.now(), candidates::add))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for object " + data + ": its Digest.crc32 says CRC32");

        S3.deleteObject(b -> b.bucket(S3_ENGINE.bucket()).key(data));
        assertThatThrownBy(
                        () -> source.join(backup, location, accounts, ALL, owners(1), Instant.now(), candidates::add))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining(data + " is listed by the nodetool snapshot 'daily' but does not exist");
        assertThat(candidates).isEmpty();
    }

    @Test
    void aSnapshotWithoutCreatedAtOrOfAnotherTableIsRefusedWhenPlanned() throws Exception {
        String prefix = prefix();
        List<String> keys = upload(prefix, "old", "10.0.0.1");
        String manifest = keys.stream()
                .filter(k -> k.endsWith("/manifest.json"))
                .findFirst()
                .orElseThrow();
        String files = new String(
                        S3.getObjectAsBytes(b -> b.bucket(S3_ENGINE.bucket()).key(manifest))
                                .asByteArray(),
                        StandardCharsets.UTF_8)
                .replaceAll("(?s).*(\"files\"\\s*:\\s*\\[[^]]*]).*", "$1");
        put(manifest, ("{" + files + "}").getBytes(StandardCharsets.UTF_8));
        BackupLocation location = BackupLocation.nodetoolSnapshots(prefix, 1);

        assertThatThrownBy(() -> source.read(location, "old"))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("has no 'created_at': Cassandra before 4.1");
        assertThatThrownBy(() -> source.plan(location, accounts, Instant.now()))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("no complete nodetool snapshot under s3://")
                .hasMessageContaining("the newest: 'old': ")
                .hasMessageContaining("Cassandra before 4.1");

        String other = prefix();
        upload(other, "daily", "10.0.0.1");
        assertThatThrownBy(() -> source.plan(
                        BackupLocation.nodetoolSnapshots(other, 1),
                        accounts.toBuilder().table("ledger").build(),
                        Instant.now()))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("holds no SSTable of " + KEYSPACE + ".ledger");
    }

    @Test
    void nodesWhoseSchemasDifferAreNotOneSnapshot() throws Exception {
        String prefix = prefix();
        upload(prefix, "daily", "10.0.0.1");
        List<String> second = upload(prefix, "daily", "10.0.0.2");
        String schema = second.stream()
                .filter(k -> k.endsWith("/schema.cql"))
                .findFirst()
                .orElseThrow();
        String altered = new String(
                        S3.getObjectAsBytes(b -> b.bucket(S3_ENGINE.bucket()).key(schema))
                                .asByteArray(),
                        StandardCharsets.UTF_8)
                .replace("owner bigint", "owner bigint,\n    region text");
        put(schema, altered.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> source.plan(BackupLocation.nodetoolSnapshots(prefix, 2), accounts, Instant.now()))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("the schema.cql of node 10.0.0.2 differs from node 10.0.0.1's");
        assertThat(altered).contains("region text");
    }

    /** Takes a snapshot of the node and uploads it as node {@code node}'s part of snapshot {@code tag}. */
    private static List<String> upload(String prefix, String tag, String node) throws Exception {
        return NodetoolSnapshotUpload.backUp(
                cassandra, NodetoolSnapshotsIT::put, prefix, tag, node, KEYSPACE, "accounts");
    }

    private static String prefix() {
        return "backups/snapshots-" + UUID.randomUUID() + "/";
    }

    private static List<String> liveAccountsOf(long owner) {
        return session.execute("SELECT account_id, owner FROM " + KEYSPACE + ".accounts").all().stream()
                .filter(row -> row.getLong("owner") == owner)
                .map(row -> Long.toString(row.getLong("account_id")))
                .toList();
    }

    private static void put(String key, byte[] bytes) {
        S3.putObject(b -> b.bucket(S3_ENGINE.bucket()).key(key), RequestBody.fromBytes(bytes));
    }

    /** The audit compares a Cassandra backup's identifiers as text: an integer's digits. */
    private static IdentifierSet owners(long... owners) {
        return HashedIdentifierSet.of(
                Arrays.stream(owners).mapToObj(Long::toString).toList());
    }
}
