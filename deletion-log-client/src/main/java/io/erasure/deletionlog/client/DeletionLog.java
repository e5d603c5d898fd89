package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.CqlSession;
import java.time.Clock;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;

/** The deletion log's parts over one session, master key and TTL. */
public record DeletionLog(LogWriter writer, LogReader reader, LogPurges purges, DatasetKeys keys) {

    public static DeletionLog open(CqlSession session, String masterKeyBase64, Duration ttl, JsonMapper json, Clock clock) {
        DatasetKeys keys = new DatasetKeys(session, PayloadCipher.masterKey(masterKeyBase64), clock);
        return new DeletionLog(new LogWriter(session, keys, json, clock, ttl), new LogReader(session, keys, json),
                new LogPurges(session, keys, clock, ttl), keys);
    }
}
