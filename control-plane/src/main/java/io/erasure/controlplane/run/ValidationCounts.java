package io.erasure.controlplane.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * What a run's validation found, as the run's {@code counts.validation} keeps it (and its receipt shows it). The two
 * keys that may be missing are absent from the JSON, not null: {@code resurrectedKey} when nothing was resurrected, and
 * the final-set digest from a validation that predates it.
 *
 * @param finalCount     the rows of the final set: those the run deletes (key {@code final})
 * @param resurrected    zombies: rows an earlier run or request deleted that are live again; this run deletes them
 *                       again
 * @param resurrectedKey where they are listed (an S3 key), absent when there are none
 * @param finalSetDigest what the authorization signs ({@link RunAuthorizer#FINAL_SET_DIGEST}); absent from a validation
 *                       that predates it
 */
public record ValidationCounts(
        long candidates,
        @JsonProperty("final") long finalCount,
        Map<String, Long> droppedByReason,
        String finalSetPrefix,
        boolean exceedsLimit,
        long resurrected,
        @JsonInclude(JsonInclude.Include.NON_NULL) String resurrectedKey,

        @JsonProperty(RunAuthorizer.FINAL_SET_DIGEST) @JsonInclude(JsonInclude.Include.NON_NULL)
        String finalSetDigest) {}
