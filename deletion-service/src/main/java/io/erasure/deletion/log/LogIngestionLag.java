package io.erasure.deletion.log;

import io.erasure.model.contract.Topics;
import io.erasure.support.kafka.ConsumerGroupLag;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far the deletion-log service is behind the log topic (records not yet ingested). Deletion pauses
 * while this exceeds the threshold, so the 30-day log never falls far behind what was deleted.
 */
public class LogIngestionLag {

    private static final Logger log = LoggerFactory.getLogger(LogIngestionLag.class);

    private final Admin admin;
    private final String ingestGroup;
    private final long threshold;
    private final Duration cacheFor;
    private volatile long lastLag;
    private volatile long measuredAt;

    public LogIngestionLag(Admin admin, String ingestGroup, long threshold, Duration cacheFor) {
        this.admin = admin;
        this.ingestGroup = ingestGroup;
        this.threshold = threshold;
        this.cacheFor = cacheFor;
    }

    /** Records of the log topic the ingest group has not committed yet. */
    public synchronized long lag() {
        if (System.nanoTime() - measuredAt < cacheFor.toNanos()) {
            return lastLag;
        }
        try {
            lastLag = ConsumerGroupLag.measure(admin, Topics.DELETION_LOG, ingestGroup, Duration.ofSeconds(5)).total();
        } catch (IllegalStateException e) {
            log.warn("could not measure deletion-log ingestion lag: {}", e.getMessage());
        }
        measuredAt = System.nanoTime();
        return lastLag;
    }

    public boolean tooFarBehind() {
        return lag() > threshold;
    }
}
