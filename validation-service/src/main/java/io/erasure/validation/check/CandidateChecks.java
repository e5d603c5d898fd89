package io.erasure.validation.check;

import io.erasure.model.candidate.Candidate;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.support.stores.StoreAdapterPool;
import io.github.resilience4j.ratelimiter.RateLimiter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Re-checks candidates against live state with bounded, throttled point reads: the identifier is
 * still deletable, the row still exists, and nothing in it was written after the backup's cut-off.
 * Only a candidate that passes all three is kept.
 *
 * <p>A batch is read as two key sets (its identifiers, then the rows of those still deletable), and each
 * read is charged to its store's budget by the statements the adapter sends for it
 * ({@link StoreAdapter#readStatements}): one per key for a store read key by key, a couple for a store
 * that reads a key set in one statement.
 */
public class CandidateChecks {

    private final StoreAdapterPool stores;
    private final IdentifierLiveness identifiers;
    private final ReadThrottle throttle;
    private final Clock clock;

    public CandidateChecks(
            StoreAdapterPool stores, IdentifierLiveness identifiers, ReadThrottle throttle, Clock clock) {
        this.stores = stores;
        this.identifiers = identifiers;
        this.throttle = throttle;
        this.clock = clock;
    }

    /**
     * The outcome of checking one batch: what is kept, how many were dropped for which reason, and the read
     * statements charged to the stores' budgets for it.
     */
    public record Checked(List<Candidate> kept, Map<DropReason, Long> dropped, long reads) {}

    public Checked check(DatasetSpec spec, IdentifierSource source, CutoffTimestamp cutoff, List<Candidate> batch) {
        Map<DropReason, Long> dropped = new EnumMap<>(DropReason.class);
        Map<String, Object> ids = new LinkedHashMap<>();
        for (Candidate candidate : batch) {
            ids.putIfAbsent(candidate.identifier(), identifierValue(spec, candidate));
        }
        DatasetSpec identifierTable = IdentifierLiveness.asTable(source);
        int identifierReads =
                Math.max(1, stores.checkedAdapter(identifierTable).readStatements(identifierTable, ids.size()));
        RateLimiter.waitForPermission(throttle.limiter(source.connectionRef()), identifierReads);
        Map<String, IdentifierLiveness.State> idStates = identifiers.states(source, ids, clock.instant());
        long reads = identifierReads;

        List<Candidate> stillDeletable = new ArrayList<>();
        for (Candidate candidate : batch) {
            switch (idStates.get(candidate.identifier())) {
                case DELETABLE -> stillDeletable.add(candidate);
                case NOT_DELETABLE -> dropped.merge(DropReason.REACTIVATED, 1L, Long::sum);
                default -> dropped.merge(DropReason.IDENTIFIER_NOT_FOUND, 1L, Long::sum);
            }
        }
        List<Candidate> kept = new ArrayList<>();
        if (!stillDeletable.isEmpty()) {
            StoreAdapter adapter = stores.checkedAdapter(spec);
            int rowReads = Math.max(1, adapter.readStatements(spec, stillDeletable.size()));
            RateLimiter.waitForPermission(throttle.limiter(spec.connectionRef()), rowReads);
            reads += rowReads;
            List<LiveState> states = adapter.checkLiveState(
                    spec, stillDeletable.stream().map(Candidate::key).toList());
            for (int i = 0; i < stillDeletable.size(); i++) {
                LiveState state = states.get(i);
                if (!state.present()) {
                    dropped.merge(DropReason.ALREADY_ABSENT, 1L, Long::sum);
                } else if (state.writtenAfter(cutoff)) {
                    dropped.merge(DropReason.MODIFIED_SINCE_BACKUP, 1L, Long::sum);
                } else {
                    kept.add(stillDeletable.get(i));
                }
            }
        }
        return new Checked(kept, dropped, reads);
    }

    /** The identifier as the source table keys it: the typed key value when the identifier is a key column. */
    private static Object identifierValue(DatasetSpec spec, Candidate candidate) {
        Object fromKey = candidate.key().get(spec.identifierColumn());
        return fromKey != null ? fromKey : candidate.identifier();
    }
}
