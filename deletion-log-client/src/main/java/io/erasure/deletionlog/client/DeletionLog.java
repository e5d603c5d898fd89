package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import java.time.Clock;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;

/** The deletion log's parts over one session, master key and TTL. */
public record DeletionLog(LogWriter writer, LogReader reader, LogPurges purges, DatasetKeys keys, FrozenSpecs specs) {

    /** At {@code LOCAL_QUORUM}. */
    public static DeletionLog open(
            CqlSession session, String masterKeyBase64, Duration ttl, JsonMapper json, Clock clock) {
        return open(session, masterKeyBase64, ttl, json, clock, LogStatements.DEFAULT);
    }

    /**
     * {@code consistency}: of every statement of the log (records, keys, purges); LOCAL_QUORUM unless there is a
     * reason.
     */
    public static DeletionLog open(
            CqlSession session,
            String masterKeyBase64,
            Duration ttl,
            JsonMapper json,
            Clock clock,
            ConsistencyLevel consistency) {
        DatasetKeys keys = new DatasetKeys(session, PayloadCipher.masterKey(masterKeyBase64), clock, consistency);
        return new DeletionLog(
                new LogWriter(session, keys, json, clock, ttl, consistency),
                new LogReader(session, keys, json, consistency),
                new LogPurges(session, keys, clock, ttl, consistency),
                keys,
                new FrozenSpecs(session, json, ttl, consistency));
    }
}
