package io.erasure.deletion.log;

import io.erasure.model.contract.Topics;
import io.erasure.support.kafka.ConsumerGroupLag;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deletion log's ingestion gate. Deletion pauses while the deletion-log service is far behind the log topic
 * (records not yet ingested), so the 30-day log never falls far behind what was deleted, and it fails closed: a lag
 * that cannot be measured (brokers unreachable, or an ingest group that never committed on a log holding records)
 * counts as too far behind. Deletion of a dataset also stops while the ingest has an unresolved dead letter of it
 * ({@link DeadLetterGate}), and of every dataset for one whose dataset cannot be told.
 */
public class LogIngestionLag {

    private static final Logger log = LoggerFactory.getLogger(LogIngestionLag.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final Admin admin;
    private final DeadLetterGate deadLetters;
    private final String ingestGroup;
    private final long threshold;
    private final Duration cacheFor;
    private volatile Measurement last;
    private volatile long measuredAt;

    /** Without dead letters: the lag alone. */
    public LogIngestionLag(Admin admin, String ingestGroup, long threshold, Duration cacheFor) {
        this(admin, null, ingestGroup, threshold, cacheFor);
    }

    /**
     * {@code deadLetterReaders}: plain consumers (no group) to read unresolved dead letters with; null to ignore them.
     */
    public LogIngestionLag(
            Admin admin,
            Supplier<Consumer<String, String>> deadLetterReaders,
            String ingestGroup,
            long threshold,
            Duration cacheFor) {
        this.admin = admin;
        this.deadLetters = deadLetterReaders == null
                ? null
                : new DeadLetterGate(admin, deadLetterReaders, Topics.DEAD_LETTERS_RESOLVED_GROUP, TIMEOUT);
        this.ingestGroup = ingestGroup;
        this.threshold = threshold;
        this.cacheFor = cacheFor;
    }

    /** One look at the gate: the lag, or why it is unknown (then {@code lag} is -1), and the blocked datasets. */
    private record Measurement(long lag, String unknown, Set<String> blocked) {}

    private synchronized Measurement measure() {
        Measurement current = last;
        if (current != null && System.nanoTime() - measuredAt < cacheFor.toNanos()) {
            return current;
        }
        try {
            ConsumerGroupLag.Lag lag = ConsumerGroupLag.measure(admin, Topics.DELETION_LOG, ingestGroup, TIMEOUT);
            Set<String> blocked = deadLetters == null ? Set.of() : deadLetters.blockedDatasets();
            current = !lag.committed() && lag.total() > 0
                    ? new Measurement(
                            -1,
                            "the ingest group '" + ingestGroup + "' has committed nothing on " + Topics.DELETION_LOG
                                    + ", which holds " + lag.total() + " records: is the deletion-log service running?",
                            blocked)
                    : new Measurement(lag.total(), null, blocked);
        } catch (IllegalStateException e) {
            current = new Measurement(-1, "deletion-log ingestion lag unknown: " + e.getMessage(), Set.of());
        }
        if (current.unknown() != null) {
            log.warn("deletion paused, failing closed: {}", current.unknown());
        }
        last = current;
        measuredAt = System.nanoTime();
        return current;
    }

    /** Records of the log topic the ingest group has not committed yet; -1 when that is unknown. */
    public long lag() {
        return measure().lag();
    }

    /** True while the lag is over the threshold or cannot be measured. */
    public boolean tooFarBehind() {
        Measurement measurement = measure();
        return measurement.unknown() != null || measurement.lag() > threshold;
    }

    /** {@link #tooFarBehind()}, or one of {@code datasets} (or every dataset) has an unresolved dead letter. */
    public boolean tooFarBehind(String... datasets) {
        return why(datasets) != null;
    }

    /**
     * Why deletion of {@code datasets} (a task's dataset and the source it is a copy of) must wait, or null if it may
     * go on.
     */
    public String why(String... datasets) {
        Measurement measurement = measure();
        if (measurement.unknown() != null) {
            return measurement.unknown();
        }
        if (measurement.lag() > threshold) {
            return "deletion log ingestion lags by " + measurement.lag() + " records (threshold " + threshold + ")";
        }
        String blocked = measurement.blocked().contains(Topics.CONTROL_GLOBAL_KEY) ? "an unknown dataset" : null;
        for (String dataset : datasets) {
            blocked = blocked == null && measurement.blocked().contains(dataset) ? dataset : blocked;
        }
        if (blocked != null) {
            return "the deletion log could not store a record of " + blocked + ": it is on "
                    + Topics.DELETION_LOG_DEAD_LETTER
                    + " until an operator resolves it (then moves the offsets of group "
                    + Topics.DEAD_LETTERS_RESOLVED_GROUP + " past it)";
        }
        return null;
    }
}
