package io.erasure.deletionlog;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param ttl       how long a record is kept after its delete ({@code erasure.deletion-log.ttl}, default 30 days)
 * @param masterKey the key that wraps the per-dataset payload keys: 32 bytes in base64
 *                  ({@code erasure.deletion-log.master-key}); the recovery service needs the same one to read payloads
 * @param consistency of every write and read of the log, purge checks and dataset keys included
 *                  ({@code erasure.deletion-log.consistency}, default LOCAL_QUORUM: a record acknowledged by a single
 *                  replica is lost with it, and the topic has committed it away)
 */
@ConfigurationProperties("erasure.deletion-log")
public record DeletionLogProperties(
        @DefaultValue("30d") Duration ttl,
        String masterKey,
        @DefaultValue("LOCAL_QUORUM") DefaultConsistencyLevel consistency) {

    public DeletionLogProperties {
        if (ttl == null || ttl.toSeconds() < 1) {
            throw new IllegalArgumentException("erasure.deletion-log.ttl must be at least 1s, got " + ttl);
        }
        if (consistency == null) {
            throw new IllegalArgumentException(
                    "erasure.deletion-log.consistency must be a consistency level, e.g. LOCAL_QUORUM");
        }
        if (masterKey == null || masterKey.isBlank()) {
            throw new IllegalArgumentException("erasure.deletion-log.master-key is required: 32 random bytes in base64"
                    + " (openssl rand -base64 32), the same in deletion-log-service and recovery-service");
        }
    }

    @Override
    public String toString() {
        return "DeletionLogProperties[ttl=" + ttl + ", masterKey=***, consistency=" + consistency + "]";
    }
}
