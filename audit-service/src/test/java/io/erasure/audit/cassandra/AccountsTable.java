package io.erasure.audit.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.erasure.infra.CassandraEngine;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import java.net.InetSocketAddress;

/**
 * The table the Cassandra backup layouts' tests back up: {@code <keyspace>.accounts (account_id bigint PRIMARY KEY,
 * owner bigint)}, accounts 1 to 30 owned by {@code id % 3}, written at {@link #T} + id.
 */
final class AccountsTable {

    static final long T = 1_700_000_000_000_000L;

    private AccountsTable() {}

    static CqlSession session(CassandraEngine cassandra) {
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build();
    }

    /** Creates the keyspace (one replica) and its accounts. */
    static void create(CqlSession session, String keyspace) {
        session.execute("CREATE KEYSPACE " + keyspace
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE " + keyspace + ".accounts (account_id bigint PRIMARY KEY, owner bigint)");
        for (long id = 1; id <= 30; id++) {
            session.execute("INSERT INTO " + keyspace + ".accounts (account_id, owner) VALUES (" + id + ", " + (id % 3)
                    + ") USING TIMESTAMP " + (T + id));
        }
    }

    /** The dataset of the accounts, by owner, backed up at {@code backup}. */
    static DatasetSpec spec(String keyspace, BackupLocation backup) {
        return DatasetSpec.builder()
                .name("accounts")
                .storeKind(StoreKind.CASSANDRA)
                .connectionRef("cassandra-main")
                .namespace(keyspace)
                .table("accounts")
                .keyColumns(KeyColumns.partitionOnly("account_id"))
                .identifierColumn("owner")
                .identifierSource("owners")
                .conditionalColumn(ConditionalColumn.none())
                .backup(backup)
                .limits(DeletionLimits.fraction(1.0))
                .ownerTeam("audit-tests")
                .build();
    }
}
