package io.erasure.deletionlog.schema;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.erasure.deletionlog.client.LogSchema;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;

/**
 * Creates the {@code deletion_log} keyspace and its tables ({@link LogSchema}) at startup when they are missing.
 *
 * <p>An existing keyspace is never altered: changing the replication of the log that holds every
 * deleted row is an operator's decision (followed by a repair), not a side effect of a deploy.
 */
public class DeletionLogKeyspace implements InitializingBean {

    public static final String NAME = "deletion_log";

    private static final Logger log = LoggerFactory.getLogger(DeletionLogKeyspace.class);
    // schema changes wait for agreement between nodes, far longer than a normal request
    private static final Duration DDL_TIMEOUT = Duration.ofSeconds(30);

    private final CqlSession session;
    private final KeyspaceReplication replication;
    private final Duration ttl;

    public DeletionLogKeyspace(CqlSession session, KeyspaceReplication replication, Duration ttl) {
        this.session = session;
        this.replication = replication;
        this.ttl = ttl;
    }

    static String createStatement(KeyspaceReplication replication) {
        return "CREATE KEYSPACE IF NOT EXISTS " + NAME + " WITH replication = " + replication.toCql()
                + " AND durable_writes = true";
    }

    @Override
    public void afterPropertiesSet() {
        String cql = createStatement(replication);
        session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
        log.info("Keyspace {} is present (created if missing with {})", NAME, replication.toCql());
        LogSchema.create(session, ttl);
    }
}
