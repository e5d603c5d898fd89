package io.erasure.audit.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.audit.sstable.SSTableScan;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.S3Clients;
import io.erasure.identifiers.HashedIdentifierSet;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.infra.CassandraEngine;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.MedusaUpload;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Medusa backup of the real node, on the local S3, read by {@link ClusterBackupSource}: the newest complete backup is
 * planned and read; a damaged, missing or misplaced object fails the unit naming it, before any candidate is handed
 * out; a backup without the dataset's table is refused when planned.
 */
class ClusterBackupSourceIT {

    private static final S3Engine S3_ENGINE = LocalEngines.s3();
    private static final S3Client S3 = S3Clients.create(
            S3_ENGINE.endpoint(), S3_ENGINE.region(), S3_ENGINE.accessKey(), S3_ENGINE.secretKey(), true);
    private static final String KEYSPACE =
            "medusa_source_" + UUID.randomUUID().toString().substring(0, 8);

    private static CassandraEngine cassandra;
    private static DatasetSpec accounts;

    private final ClusterBackupSource source = new ClusterBackupSource(
            S3,
            S3_ENGINE.bucket(),
            () -> SSTableScan.onRuntimeClasspath(Duration.ofMinutes(2), "256m"),
            2,
            Duration.ofMinutes(2));

    @BeforeAll
    static void table() {
        cassandra = LocalEngines.cassandra();
        try (CqlSession session = AccountsTable.session(cassandra)) {
            AccountsTable.create(session, KEYSPACE);
        }
        accounts = AccountsTable.spec(KEYSPACE, BackupLocation.medusa("backups/medusa/"));
    }

    @AfterAll
    static void close() {
        S3.close();
    }

    @Test
    void theNewestCompleteBackupIsPlannedInTokenRangesAndEveryRangeReadsItsShare() throws Exception {
        BackupLocation location = backUp("b1");
        ClusterBackupSource.Planned plan = source.plan(location, accounts, Instant.now());
        assertThat(plan.backup().name()).isEqualTo("b1");
        assertThat(plan.unitKeys()).hasSize(2);
        assertThat(plan.cutoffMicros())
                .isEqualTo(plan.backup().cutoff(Duration.ofMinutes(2)).micros());

        List<Candidate> candidates = new ArrayList<>();
        long rows = 0;
        for (String unit : plan.unitKeys()) {
            rows += source.join(plan.backup(), location, accounts, unit, owners(1), Instant.now(), candidates::add)
                    .rowsScanned();
        }
        assertThat(rows).isEqualTo(30);
        assertThat(candidates)
                .extracting(c -> c.key().get("account_id").toString())
                .containsExactlyInAnyOrder("1", "4", "7", "10", "13", "16", "19", "22", "25", "28");
    }

    @Test
    void aDamagedMissingOrMisplacedObjectFailsTheUnitNamingItBeforeAnyCandidate() throws Exception {
        BackupLocation location = backUp("b2");
        ClusterBackup backup = source.read(location, "b2");
        ClusterBackup.StoredObject data = backup.objects(KEYSPACE, "accounts").stream()
                .map(ClusterBackup.NodeObject::object)
                .filter(o -> o.key().endsWith("-Data.db"))
                .findFirst()
                .orElseThrow();
        String unit = "tokens:" + Long.MIN_VALUE + ":" + Long.MAX_VALUE;
        List<Candidate> candidates = new ArrayList<>();

        put(data.key(), "x".repeat((int) data.size()).getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(
                        () -> source.join(backup, location, accounts, unit, owners(1), Instant.now(), candidates::add))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("checksum mismatch for object " + data.key());

        S3.deleteObject(b -> b.bucket(S3_ENGINE.bucket()).key(data.key()));
        assertThatThrownBy(
                        () -> source.join(backup, location, accounts, unit, owners(1), Instant.now(), candidates::add))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining(data.key() + " is listed by the Medusa backup 'b2' but does not exist");

        String folder = backup.nodes().get(0).tables().get(0).folder();
        String node = location.prefix() + "node1.local/";
        for (String key : List.of(
                "backups/other-dataset/2024/part-00000.jsonl.gz",
                node + "b2/data/" + KEYSPACE + "/" + folder + "/../../../../other/" + folder + "/nb-1-big-Data.db",
                node + "b2/data/" + KEYSPACE + "/other-table/nb-1-big-Data.db")) {
            ClusterBackup misplaced = withObjects(backup, folder, new ClusterBackup.StoredObject(key, 10, data.md5()));
            assertThatThrownBy(() ->
                            source.join(misplaced, location, accounts, unit, owners(1), Instant.now(), candidates::add))
                    .as(key)
                    .isInstanceOf(BackupIntegrityException.class)
                    .hasMessageContaining("objects must lie in the table's folder under " + node);
        }
        ClusterBackup.StoredObject twice =
                backup.nodes().get(0).tables().get(0).objects().get(0);
        assertThatThrownBy(() -> source.join(
                        withObjects(backup, folder, twice, twice),
                        location,
                        accounts,
                        unit,
                        owners(1),
                        Instant.now(),
                        candidates::add))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("twice on node node1.local");
        assertThat(candidates).isEmpty();
    }

    @Test
    void aSecondaryIndexsOwnSSTablesAreNotReadInPlaceOfTheTables() throws Exception {
        BackupLocation location = backUp("b4");
        ClusterBackup backup = source.read(location, "b4");
        ClusterBackup.Table table = backup.nodes().get(0).tables().get(0);
        List<ClusterBackup.StoredObject> objects = new ArrayList<>(table.objects());
        // Medusa uploads a table's snapshot folder recursively: an index's SSTables have the table's file names
        for (ClusterBackup.StoredObject object : table.objects()) {
            String key = object.key();
            String indexKey = key.substring(0, key.lastIndexOf('/')) + "/.accounts_owner_idx"
                    + key.substring(key.lastIndexOf('/'));
            objects.add(new ClusterBackup.StoredObject(indexKey, 1, "00000000000000000000000000000000"));
        }
        ClusterBackup withIndex =
                withObjects(backup, table.folder(), objects.toArray(ClusterBackup.StoredObject[]::new));
        List<Candidate> candidates = new ArrayList<>();

        long rows = source.join(
                        withIndex,
                        location,
                        accounts,
                        "tokens:" + Long.MIN_VALUE + ":" + Long.MAX_VALUE,
                        owners(2),
                        Instant.now(),
                        candidates::add)
                .rowsScanned();

        assertThat(rows).isEqualTo(30);
        assertThat(candidates).hasSize(10);
    }

    /** {@code backup} with one node whose table folder lists {@code objects}. */
    private static ClusterBackup withObjects(
            ClusterBackup backup, String folder, ClusterBackup.StoredObject... objects) {
        return new ClusterBackup(
                backup.layout(),
                backup.name(),
                backup.started(),
                backup.folder(),
                backup.schemaKey(),
                List.of(new ClusterBackup.Node(
                        "node1.local",
                        backup.started(),
                        false,
                        List.of(ClusterBackup.Table.medusa(KEYSPACE, folder, List.of(objects))),
                        backup.nodes().get(0).keyPrefix())));
    }

    @Test
    void aBackupWithoutTheDatasetsTableIsRefusedWhenPlanned() throws Exception {
        BackupLocation location = backUp("b3");
        DatasetSpec other = accounts.toBuilder().table("ledger").build();

        assertThatThrownBy(() -> source.plan(location, other, Instant.now()))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("holds no SSTable of " + KEYSPACE + ".ledger");
        assertThatThrownBy(() -> source.plan(
                        BackupLocation.medusa("backups/medusa-empty-" + UUID.randomUUID() + "/"),
                        accounts,
                        Instant.now()))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageContaining("no complete Medusa backup under");
    }

    private static BackupLocation backUp(String name) throws Exception {
        String prefix = "backups/medusa-" + UUID.randomUUID() + "/";
        MedusaUpload.backUp(cassandra, ClusterBackupSourceIT::put, prefix, name, "node1.local", KEYSPACE, "accounts");
        return BackupLocation.medusa(prefix);
    }

    private static void put(String key, byte[] bytes) {
        S3.putObject(b -> b.bucket(S3_ENGINE.bucket()).key(key), RequestBody.fromBytes(bytes));
    }

    /** The audit compares a Medusa backup's identifiers as text: an integer's digits. */
    private static IdentifierSet owners(long... owners) {
        return HashedIdentifierSet.of(
                Arrays.stream(owners).mapToObj(Long::toString).toList());
    }
}
