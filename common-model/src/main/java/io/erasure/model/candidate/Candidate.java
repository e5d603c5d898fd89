package io.erasure.model.candidate;

import io.erasure.model.check.Require;
import io.erasure.model.key.CanonicalKey;
import java.util.Map;

/**
 * One row found deletable: a line of a candidate or final-set file,
 * {@code {"key": {col: value…}, "identifier": …, "writeTimeMicros": …}}.
 *
 * @param key             the primary key, column order kept
 * @param identifier      the identifier value that made the row deletable
 * @param writeTimeMicros the row's latest write time seen in the backup, or null if the store has none
 */
public record Candidate(Map<String, Object> key, String identifier, Long writeTimeMicros) {

    public Candidate {
        key = CanonicalKey.copyOf("candidate.key", key);
        Require.nonBlank("candidate.identifier", identifier);
    }
}
