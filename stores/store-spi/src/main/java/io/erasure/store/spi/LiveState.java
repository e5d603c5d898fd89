package io.erasure.store.spi;

import io.erasure.model.cutoff.CutoffTimestamp;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The live state of one key from a cheap point read.
 *
 * @param lastWriteMicros newest write time of the row, null if absent or unknown
 */
public record LiveState(
        Map<String, Object> key, boolean present, @Nullable Long lastWriteMicros) {

    public LiveState {
        Objects.requireNonNull(key, "key");
        key = Collections.unmodifiableMap(new LinkedHashMap<>(key));
        if (!present && lastWriteMicros != null) {
            throw new IllegalArgumentException("an absent row has no write time");
        }
    }

    public static LiveState absent(Map<String, Object> key) {
        return new LiveState(key, false, null);
    }

    public boolean writtenAfter(CutoffTimestamp cutoff) {
        return present && cutoff.isWrittenAfter(lastWriteMicros);
    }
}
