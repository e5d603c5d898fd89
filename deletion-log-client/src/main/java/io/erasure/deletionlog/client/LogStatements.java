package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.util.Objects;

/**
 * Prepares the log's statements at one consistency level, which every statement bound from them inherits. The log
 * holds the only copy of deleted rows: at the driver's default (LOCAL_ONE) a record acknowledged by one replica that
 * then dies is lost, and a purge check read from a stale replica lets a purged record back in; hence LOCAL_QUORUM.
 */
final class LogStatements {

    /** Writes, reads, key look-ups and purge checks of the log, unless configured otherwise. */
    static final ConsistencyLevel DEFAULT = DefaultConsistencyLevel.LOCAL_QUORUM;

    private final CqlSession session;
    private final ConsistencyLevel level;

    LogStatements(CqlSession session, ConsistencyLevel level) {
        this.session = session;
        this.level = Objects.requireNonNull(level, "consistency level of the deletion log");
    }

    PreparedStatement prepare(String cql) {
        return session.prepare(
                SimpleStatement.builder(cql).setConsistencyLevel(level).build());
    }
}
