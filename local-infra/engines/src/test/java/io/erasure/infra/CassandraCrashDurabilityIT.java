package io.erasure.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.infra.process.FreePorts;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node on a persistent folder (the local platform's, the chaos trials') keeps every write it acknowledged through a
 * SIGKILL. In Cassandra's default {@code periodic} commit-log mode it does not: the deletes acknowledged in the last
 * ~100 ms before the kill are not replayed, and the rows they removed come back. That is what chaos trial #39 saw
 * (profiles the receipts counted deleted, there again after the node crashed), and what this test caught before the
 * engine synced its commit log before acknowledging.
 */
class CassandraCrashDurabilityIT {

    private static final int ROWS = 2_000;
    private static final int DELETED = 50;

    @Test
    void deletesAcknowledgedJustBeforeASigkillAreStillDeletedAfterTheRestart(@TempDir Path dir) {
        CassandraEngine cassandra =
                new CassandraEngine(FreePorts.next(), FreePorts.next(), FreePorts.next(), EngineFolder.persistent(dir));
        try {
            CqlSession session = session(cassandra);
            try {
                session.execute("CREATE KEYSPACE crash_test WITH replication = "
                        + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
                session.execute("CREATE TABLE crash_test.rows (id bigint PRIMARY KEY, v text)");
                PreparedStatement insert = session.prepare("INSERT INTO crash_test.rows (id, v) VALUES (?, 'x')");
                acknowledged(
                        session,
                        LongStream.range(0, ROWS).mapToObj(insert::bind).toList());
                PreparedStatement delete = session.prepare("DELETE FROM crash_test.rows WHERE id = ?");
                acknowledged(
                        session,
                        LongStream.range(0, DELETED).mapToObj(delete::bind).toList());

                cassandra.crashAndRestart(); // SIGKILL at once: no drain, no flush
            } finally {
                session.close();
            }

            try (CqlSession after = session(cassandra)) {
                assertThat(after.execute("SELECT count(*) FROM crash_test.rows")
                                .one()
                                .getLong(0))
                        .as("rows after the restart: every acknowledged insert and delete replayed")
                        .isEqualTo(ROWS - DELETED);
                assertThat(after.execute("SELECT id FROM crash_test.rows WHERE id IN (0, 1, 48, 49)")
                                .all())
                        .as("rows whose delete was acknowledged before the kill")
                        .isEmpty();
            }
        } finally {
            cassandra.close();
        }
    }

    /** Sends the statements, up to 200 at once, and returns when the node has acknowledged them all. */
    private static void acknowledged(CqlSession session, List<? extends Statement<?>> statements) {
        for (int from = 0; from < statements.size(); from += 200) {
            CompletableFuture<?>[] acks = statements.subList(from, Math.min(statements.size(), from + 200)).stream()
                    .map(statement -> session.executeAsync(statement).toCompletableFuture())
                    .toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(acks).join();
        }
    }

    private static CqlSession session(CassandraEngine cassandra) {
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(cassandra.host(), cassandra.port()))
                .withLocalDatacenter(cassandra.localDatacenter())
                .build();
    }
}
