package io.erasure.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.CassandraEngine;
import io.erasure.local.demo.DemoCycle;
import io.erasure.local.demo.PlatformClient;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.net.InetSocketAddress;
import java.net.URI;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 18 item 13, against the running services: the control plane stores a registration only after the deletion
 * service has checked it against the live Cassandra through its adapter; what does not fit is answered 422 with the
 * problem, and nothing is stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegistrationChecksPlatformIT {

    private final JsonMapper json = JsonMapper.builder().build();
    private PlatformClient owner;

    @BeforeAll
    void platform() throws Exception {
        SharedPlatform shared = SharedPlatform.get();
        owner = new PlatformClient(json, URI.create("http://127.0.0.1:8080"), "owner", "owner");
        CassandraEngine cassandra = shared.platform.engine(CassandraEngine.class);
        String[] hostPort = cassandra.contactPoint().split(":");
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                .withLocalDatacenter(CassandraEngine.LOCAL_DATACENTER)
                .build()) {
            session.execute(
                    "CREATE TABLE IF NOT EXISTS demo.member_visits (member_id bigint PRIMARY KEY, visits counter)");
        }
    }

    @Test
    void aTableThatDoesNotExistIsRefusedWithTheProblemAndNotStored() {
        DatasetSpec spec = spec("member-archive", "member_archive", "member_id");

        PlatformClient.Answer answer = owner.post("/api/datasets", spec);

        assertThat(answer.status()).isEqualTo(422);
        assertThat(answer.text()).contains("does not fit the live stores").contains("member_archive");
        assertThat(owner.get("/api/datasets/member-archive").status()).isEqualTo(404);
    }

    @Test
    void anIdentifierColumnThatDoesNotExistOrACounterTableIsRefused() {
        PlatformClient.Answer missingColumn =
                owner.post("/api/datasets", spec("profiles-by-account", "member_profiles", "account_id"));
        PlatformClient.Answer counter =
                owner.post("/api/datasets", spec("member-visits", "member_visits", "member_id"));

        assertThat(missingColumn.status()).isEqualTo(422);
        assertThat(missingColumn.text()).contains("account_id");
        assertThat(counter.status()).isEqualTo(422);
        assertThat(counter.text()).contains("counter");
        assertThat(owner.get("/api/datasets/member-visits").status()).isEqualTo(404);
    }

    private static DatasetSpec spec(String name, String table, String identifier) {
        return DatasetSpec.builder()
                .name(name)
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace("demo")
                .table(table)
                .keyColumns(KeyColumns.partitionOnly("member_id"))
                .identifierColumn(identifier)
                .identifierSource(DemoCycle.SOURCE)
                .conditionalColumn(ConditionalColumn.none())
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.2))
                .ownerTeam(DemoCycle.TEAM)
                .build();
    }
}
