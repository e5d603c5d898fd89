package io.erasure.model.recovery;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
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

    record ByKeys(String dataset, List<Map<String, Object>> keys) implements RecoveryScope {
        public ByKeys {
            Names.datasetName("scope.dataset", dataset);
            List<Map<String, Object>> given = Require.nonEmptyListOf("scope.keys", keys);
            List<Map<String, Object>> copies = new ArrayList<>(given.size());
            for (int i = 0; i < given.size(); i++) {
                copies.add(CanonicalKey.copyOf("scope.keys[" + i + "]", given.get(i)));
            }
            keys = List.copyOf(copies);
        }
    }

    /** Rows of {@code dataset} deleted at or after {@code from} and before {@code to}. */
    record ByTimeWindow(String dataset, Instant from, Instant to) implements RecoveryScope {
        public ByTimeWindow {
            Names.datasetName("scope.dataset", dataset);
            Require.nonNull("scope.from", from);
            Require.nonNull("scope.to", to);
            if (!from.isBefore(to)) {
                throw new IllegalArgumentException("scope.from must be before scope.to, got from=" + from + ", to=" + to);
            }
        }
    }

    record ByRun(RunId runId) implements RecoveryScope {
        public ByRun {
            Require.nonNull("scope.runId", runId);
        }
    }
}
