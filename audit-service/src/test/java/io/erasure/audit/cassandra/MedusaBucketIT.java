package io.erasure.audit.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.backup.format.S3Clients;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.S3Engine;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** Medusa backups laid out on the local S3 as Medusa writes them, read back from their metadata. */
class MedusaBucketIT {

    private static final S3Engine ENGINE = LocalEngines.s3();
    private static final S3Client S3 =
            S3Clients.create(ENGINE.endpoint(), ENGINE.region(), ENGINE.accessKey(), ENGINE.secretKey(), true);
    private static final List<String> NODES = List.of("node1.dc1", "node2.dc1", "node3.dc1");
    private static final String TABLE_FOLDER = "users-0123456789abcdef0123456789abcdef";

    @AfterAll
    static void close() {
        S3.close();
    }

    @Test
    void theNewestBackupEveryNodeFinishedIsTheOneAudited() throws Exception {
        String prefix = "medusa-" + UUID.randomUUID() + "/";
        backUp(prefix, "b1", NODES, false);
        Thread.sleep(1100); // S3 times have second precision: b2 starts later
        backUp(prefix, "b2", NODES.subList(0, 2), false); // node3 never finished b2
        // b2's token map still names node3: its schema was uploaded, its manifest was not
        put(prefix + "node3.dc1/b2/meta/schema.cql", "CREATE TABLE ks.users (id bigint PRIMARY KEY);");
        put(prefix + "node3.dc1/b2/meta/tokenmap.json", tokenMap());
        MedusaBucket bucket = new MedusaBucket(S3, ENGINE.bucket(), prefix);

        ClusterBackup latest = bucket.latestComplete();

        assertThat(latest.name()).isEqualTo("b1");
        assertThat(latest.nodes()).extracting(ClusterBackup.Node::fqdn).containsExactlyElementsOf(NODES);
        assertThat(latest.started())
                .isEqualTo(latest.nodes().stream()
                        .map(ClusterBackup.Node::started)
                        .min(Comparator.naturalOrder())
                        .orElseThrow());
        assertThat(latest.objects("ks", "users"))
                .hasSize(6)
                .extracting(ClusterBackup.NodeObject::fqdn)
                .containsOnly(NODES.toArray(String[]::new));
        assertThat(latest.objects("ks", "other")).isEmpty();
        assertThatThrownBy(() -> bucket.read("b2"))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("Medusa backup 'b2' is incomplete: node node3.dc1 has no meta/manifest.json under s3://"
                        + ENGINE.bucket() + "/" + prefix + "node3.dc1/b2/");
    }

    @Test
    void everyListedObjectIsCheckedAgainstItsManifestMd5AndAReplacedOneIsNamed() throws Exception {
        String prefix = "medusa-" + UUID.randomUUID() + "/";
        backUp(prefix, "b1", NODES, true);
        ClusterBackup backup = new MedusaBucket(S3, ENGINE.bucket(), prefix).read("b1");
        assertThat(backup.nodes()).allMatch(ClusterBackup.Node::differential);

        for (ClusterBackup.NodeObject object : backup.objects("ks", "users")) {
            try (InputStream in = S3.getObject(
                    b -> b.bucket(ENGINE.bucket()).key(object.object().key()))) {
                MedusaMd5.Checked checked = object.object().checksum().check(in);
                assertThatCode(checked::verify).doesNotThrowAnyException();
            }
        }
        ClusterBackup.StoredObject replaced =
                backup.objects("ks", "users").get(0).object();
        put(replaced.key(), "x".repeat((int) replaced.size())); // same size, other bytes
        try (InputStream in = S3.getObject(b -> b.bucket(ENGINE.bucket()).key(replaced.key()))) {
            MedusaMd5.Checked checked = replaced.checksum().check(in);
            assertThatThrownBy(checked::verify)
                    .isInstanceOf(BackupIntegrityException.class)
                    .hasMessageStartingWith("checksum mismatch for object " + replaced.key());
        }
    }

    @Test
    void aBucketWithoutACompleteBackupHasNone() {
        String prefix = "medusa-" + UUID.randomUUID() + "/";
        put(prefix + "node1.dc1/b1/meta/schema.cql", "CREATE TABLE ks.users (id bigint PRIMARY KEY);");

        assertThatThrownBy(() -> new MedusaBucket(S3, ENGINE.bucket(), prefix).latestComplete())
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessageStartingWith("no complete Medusa backup under s3://");
    }

    /** Each node: schema first, its SSTable components, then the manifest with their MD5s, last. */
    private static void backUp(String prefix, String name, List<String> nodes, boolean differential) throws Exception {
        for (String fqdn : nodes) {
            String meta = prefix + fqdn + "/" + name + "/meta/";
            put(meta + "schema.cql", "CREATE TABLE ks.users (id bigint PRIMARY KEY, email text);");
            put(meta + "tokenmap.json", tokenMap());
            if (differential) {
                put(meta + "differential", "differential");
            }
            String data =
                    prefix + fqdn + (differential ? "/data/" : "/" + name + "/data/") + "ks/" + TABLE_FOLDER + "/";
            StringBuilder objects = new StringBuilder();
            for (String component : List.of("nb-1-big-Data.db", "nb-1-big-Statistics.db")) {
                String content = fqdn + " " + component + " of " + name;
                put(data + component, content);
                byte[] md5 = MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
                objects.append(objects.length() == 0 ? "" : ",")
                        .append("{\"path\":\"")
                        .append(data)
                        .append(component)
                        .append("\",\"MD5\":\"")
                        .append(HexFormat.of().formatHex(md5))
                        .append("\",\"size\":")
                        .append(content.length())
                        .append('}');
            }
            put(
                    meta + "manifest.json",
                    "[{\"keyspace\":\"ks\",\"columnfamily\":\"" + TABLE_FOLDER + "\",\"objects\":[" + objects + "]}]");
        }
    }

    private static String tokenMap() {
        StringBuilder map = new StringBuilder("{");
        for (int i = 0; i < NODES.size(); i++) {
            map.append(i == 0 ? "" : ",")
                    .append('"')
                    .append(NODES.get(i))
                    .append("\":{\"tokens\":[")
                    .append(-3_000_000_000L + i * 3_000_000_000L)
                    .append("],\"is_up\":true,\"rack\":\"r1\",\"dc\":\"dc1\"}");
        }
        return map.append('}').toString();
    }

    private static void put(String key, String content) {
        S3.putObject(b -> b.bucket(ENGINE.bucket()).key(key), RequestBody.fromString(content));
    }
}
