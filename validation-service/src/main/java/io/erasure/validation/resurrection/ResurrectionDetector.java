package io.erasure.validation.resurrection;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import io.erasure.deletionlog.client.KeyHash;
import io.erasure.deletionlog.client.PriorDeletions;
import io.erasure.deletionlog.client.PriorDeletions.PriorDeletion;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.run.RunId;
import io.erasure.store.spi.StoreException;
import io.erasure.validation.check.ReadThrottle;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds zombies: rows of the final set (live, deletable, unchanged since the cut-off) whose key the
 * deletion log records as deleted by an earlier run or request. They stay in the final set and are
 * deleted again at this run's cut-off, so a write newer than the cut-off still wins; this class only
 * names them (DESIGN invariant 9, "trust but verify").
 *
 * <p>Off when the log is not configured: {@link #status()} then says {@value #NOT_CONFIGURED}, never
 * "nothing found". The log keeps records for its TTL (30 days by default): a row deleted longer ago
 * and back again is deleted again all the same, but not reported as resurrected.
 */
public class ResurrectionDetector implements AutoCloseable {

    /** {@code resurrectionCheck} of a report whose final set was looked up in the log. */
    public static final String CHECKED = "checked";
    /** {@code resurrectionCheck} of a report made without the log: zombies were not looked for. */
    public static final String NOT_CONFIGURED = "not configured";

    public static final String COUNTER = "erasure.validation.resurrected";
    // not a store connection: a name no connection ref can take
    static final String THROTTLE_NAME = "deletion-log (resurrection check)";

    private final PriorDeletions log;
    private final AutoCloseable session;
    private final ReadThrottle throttle;
    private final MeterRegistry meters;

    /**
     * @param session closed with this detector (the log's own session), or null
     */
    public ResurrectionDetector(
            PriorDeletions log, AutoCloseable session, ReadThrottle throttle, MeterRegistry meters) {
        this.log = log;
        this.session = session;
        this.throttle = throttle;
        this.meters = meters;
    }

    /** A detector that looks for nothing and says so. */
    public static ResurrectionDetector notConfigured(MeterRegistry meters) {
        return new ResurrectionDetector(null, null, null, meters);
    }

    public boolean configured() {
        return log != null;
    }

    /** {@value #CHECKED} or {@value #NOT_CONFIGURED}: what a report says about its resurrected count. */
    public String status() {
        return configured() ? CHECKED : NOT_CONFIGURED;
    }

    /**
     * The rows of {@code kept} (rows of the final set of {@code run}) the log knows as deleted before,
     * in their order; one throttled point read per key. A log that cannot be read now throws
     * {@link StoreException.Retriable}: the job is retried rather than reporting "no zombies".
     */
    public List<ResurrectedRow> detect(RunId run, DatasetSpec spec, List<Candidate> kept) {
        if (!configured() || kept.isEmpty()) {
            return List.of();
        }
        RateLimiter.waitForPermission(throttle.limiter(THROTTLE_NAME), kept.size());
        Map<String, PriorDeletion> prior;
        try {
            prior = log.find(spec.name(), kept.stream().map(Candidate::key).toList());
        } catch (AllNodesFailedException
                | DriverTimeoutException
                | ClosedConnectionException
                | UnavailableException
                | QueryConsistencyException e) {
            throw new StoreException.Retriable(
                    "the deletion log cannot be read now to look for resurrected rows of '" + spec.name() + "': "
                            + e.getMessage(),
                    e);
        } catch (DriverException e) {
            throw new IllegalStateException(
                    "the deletion log cannot be read to look for resurrected rows of '" + spec.name()
                            + "' (are erasure.validation.deletion-log.* right, and has deletion-log-service created its"
                            + " tables?): "
                            + e.getMessage(),
                    e);
        }
        List<ResurrectedRow> resurrected = new ArrayList<>();
        for (Candidate candidate : kept) {
            PriorDeletion deletion = prior.get(KeyHash.of(spec.name(), candidate.key()));
            if (deletion != null) {
                resurrected.add(new ResurrectedRow(
                        spec.name(),
                        candidate.key(),
                        deletion.firstDeletedAt(),
                        deletion.firstDeletedBy(),
                        run.value()));
            }
        }
        return resurrected;
    }

    /** Adds {@code count} zombies of {@code dataset} to the {@value #COUNTER} counter. */
    public void count(String dataset, long count) {
        Counter.builder(COUNTER)
                .description("Rows found live again after an earlier run or request had deleted them; deleted again")
                .tag("dataset", dataset)
                .register(meters)
                .increment(count);
    }

    @Override
    public void close() throws Exception {
        if (session != null) {
            session.close();
        }
    }
}
