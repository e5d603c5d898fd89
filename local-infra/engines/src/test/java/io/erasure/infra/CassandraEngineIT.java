package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalEnginesExtension.class)
class CassandraEngineIT {

    @Test
    void deleteAtTimestampHidesOlderWritesAndLetsNewerOnesSurvive(CassandraEngine cassandra) {
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS engine_test WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE IF NOT EXISTS engine_test.profiles (id bigint PRIMARY KEY, name text)");
            long t = 1_700_000_000_000_000L;

            session.execute(
                    "INSERT INTO engine_test.profiles (id, name) VALUES (1, 'old') USING TIMESTAMP " + (t - 10));
            session.execute(
                    "INSERT INTO engine_test.profiles (id, name) VALUES (2, 'old') USING TIMESTAMP " + (t - 10));
            session.execute("DELETE FROM engine_test.profiles USING TIMESTAMP " + t + " WHERE id IN (1, 2)");

            session.execute(
                    "INSERT INTO engine_test.profiles (id, name) VALUES (1, 'newer') USING TIMESTAMP " + (t + 1));
            session.execute(
                    "INSERT INTO engine_test.profiles (id, name) VALUES (2, 'older') USING TIMESTAMP " + (t - 1));

            Row survivor = session.execute("SELECT name, WRITETIME(name) AS wt FROM engine_test.profiles WHERE id = 1")
                    .one();
            assertThat(survivor).isNotNull();
            assertThat(survivor.getString("name")).isEqualTo("newer");
            assertThat(survivor.getLong("wt")).isEqualTo(t + 1);
            assertThat(session.execute("SELECT name FROM engine_test.profiles WHERE id = 2")
                            .one())
                    .isNull();
        }
    }
}
