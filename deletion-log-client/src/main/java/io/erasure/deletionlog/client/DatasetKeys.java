package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * Per-dataset data keys for log payloads: random AES-256 keys, stored wrapped under the master key in
 * {@code dataset_keys} by version. Purging a dataset deletes every version's wrapped key, so every payload
 * written with them is unreadable at once (crypto-shredding), while the next record gets a new version.
 *
 * <p>Not cached: a purge must take effect for every reader and writer of every replica immediately.
 */
public final class DatasetKeys {

    private final CqlSession session;
    private final SecretKey master;
    private final Clock clock;
    private final PreparedStatement latest;
    private final PreparedStatement byVersion;
    private final PreparedStatement create;
    private final PreparedStatement versions;
    private final PreparedStatement dropKey;

    public DatasetKeys(CqlSession session, SecretKey master, Clock clock) {
        this(session, master, clock, LogStatements.DEFAULT);
    }

    /**
     * {@code consistency}: of every read and write of the keys (a key read from a stale replica could outlive its
     * purge).
     */
    public DatasetKeys(CqlSession session, SecretKey master, Clock clock, ConsistencyLevel consistency) {
        LogStatements statements = new LogStatements(session, consistency);
        this.session = session;
        this.master = master;
        this.clock = clock;
        this.latest = statements.prepare(
                "SELECT version, wrapped_key FROM " + LogSchema.DATASET_KEYS + " WHERE dataset = ? LIMIT 1");
        this.byVersion = statements.prepare(
                "SELECT wrapped_key FROM " + LogSchema.DATASET_KEYS + " WHERE dataset = ? AND version = ?");
        this.create = statements.prepare("INSERT INTO " + LogSchema.DATASET_KEYS
                + " (dataset, version, wrapped_key, created_at)" + " VALUES (?, ?, ?, ?) IF NOT EXISTS");
        this.versions = statements.prepare("SELECT version FROM " + LogSchema.DATASET_KEYS + " WHERE dataset = ?");
        this.dropKey = statements.prepare(
                "DELETE wrapped_key FROM " + LogSchema.DATASET_KEYS + " WHERE dataset = ? AND version = ?");
    }

    public record DataKey(int version, SecretKey key) {}

    /** The key new records of {@code dataset} are sealed with, created on first use and after a purge. */
    public DataKey current(String dataset) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Row row = session.execute(latest.bind(dataset)).one();
            if (row != null && row.getByteBuffer("wrapped_key") != null) {
                int version = row.getInt("version");
                return new DataKey(version, unwrap(dataset, version, row.getByteBuffer("wrapped_key")));
            }
            int next = row == null ? 1 : row.getInt("version") + 1;
            SecretKey key = PayloadCipher.newDataKey();
            byte[] wrapped = PayloadCipher.encrypt(master, key.getEncoded(), aad(dataset, next));
            // a concurrent writer may win the race for this version; the loop then reads its key
            session.execute(create.bind(dataset, next, ByteBuffer.wrap(wrapped), clock.instant()));
        }
        throw new IllegalStateException("could not create a data key for dataset '" + dataset + "' after 5 attempts");
    }

    /** The key of one version, or empty if it was purged (or never existed). */
    public Optional<SecretKey> key(String dataset, int version) {
        Row row = session.execute(byVersion.bind(dataset, version)).one();
        if (row == null || row.getByteBuffer("wrapped_key") == null) {
            return Optional.empty();
        }
        return Optional.of(unwrap(dataset, version, row.getByteBuffer("wrapped_key")));
    }

    /** Deletes every version's key of {@code dataset}; returns how many versions were dropped. */
    public int dropAll(String dataset) {
        int dropped = 0;
        for (Row row : session.execute(versions.bind(dataset))) {
            session.execute(dropKey.bind(dataset, row.getInt("version")));
            dropped++;
        }
        return dropped;
    }

    private SecretKey unwrap(String dataset, int version, ByteBuffer wrapped) {
        byte[] bytes = new byte[wrapped.remaining()];
        wrapped.duplicate().get(bytes);
        return PayloadCipher.dataKey(PayloadCipher.decrypt(master, bytes, aad(dataset, version)));
    }

    private static String aad(String dataset, int version) {
        return "erasure-log-key|" + dataset + "|" + version;
    }
}
