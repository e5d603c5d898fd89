package io.erasure.model.recovery;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.erasure.model.check.Allowed;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a recovery restores: given keys of a dataset, a dataset's deletions in a time window, or a whole run. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = RecoveryScope.ByKeys.class, name = "keys"),
    @JsonSubTypes.Type(value = RecoveryScope.ByTimeWindow.class, name = "timeWindow"),
    @JsonSubTypes.Type(value = RecoveryScope.ByRun.class, name = "run")
})
public sealed interface RecoveryScope permits RecoveryScope.ByKeys, RecoveryScope.ByTimeWindow, RecoveryScope.ByRun {

    /** What a time window's ends accept. */
    String INSTANT = "an ISO-8601 instant such as 2026-01-31T00:00:00Z";

    /** Given keys of {@code dataset}, at most {@value #MAX_KEYS}. */
    record ByKeys(String dataset, List<Map<String, Object>> keys) implements RecoveryScope {

        /**
         * The most keys one recovery names: each is a lookup in the log, and a request stays small. More rows are
         * restored by time window or by run, which page through the log instead.
         */
        public static final int MAX_KEYS = 1_000;

        public ByKeys {
            Names.datasetName("scope.dataset", dataset);
            Require.nonNull("scope.keys", keys);
            if (keys.size() > MAX_KEYS) {
                throw new IllegalArgumentException("scope.keys has " + keys.size() + " elements; at most " + MAX_KEYS
                        + " are allowed: restore more rows with a timeWindow or run scope, or in several requests");
            }
            List<Map<String, Object>> given = Require.nonEmptyListOf("scope.keys", keys);
            List<Map<String, Object>> copies = new ArrayList<>(given.size());
            for (int i = 0; i < given.size(); i++) {
                copies.add(CanonicalKey.copyOf("scope.keys[" + i + "]", given.get(i)));
            }
            keys = List.copyOf(copies);
        }
    }

    /** Rows of {@code dataset} deleted at or after {@code from} and before {@code to}. */
    record ByTimeWindow(
            String dataset,
            @Allowed(INSTANT) Instant from,
            @Allowed(INSTANT) Instant to) implements RecoveryScope {
        public ByTimeWindow {
            Names.datasetName("scope.dataset", dataset);
            Require.nonNull("scope.from", from);
            Require.nonNull("scope.to", to);
            if (!from.isBefore(to)) {
                throw new IllegalArgumentException(
                        "scope.from must be before scope.to, got from=" + from + ", to=" + to);
            }
        }
    }

    record ByRun(RunId runId) implements RecoveryScope {
        public ByRun {
            Require.nonNull("scope.runId", runId);
        }
    }
}
