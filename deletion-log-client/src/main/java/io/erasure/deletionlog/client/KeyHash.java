package io.erasure.deletionlog.client;

import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import java.util.Map;

/**
 * The partition key of {@code records_by_key}: SHA-256 of (dataset, canonical primary key), so the
 * primary key itself is stored only inside the encrypted payload.
 */
public final class KeyHash {

    private KeyHash() {}

    public static String of(String dataset, Map<String, ?> primaryKey) {
        return DeterministicId.sha256Hex("deletion-log-key-v1", dataset, CanonicalKey.render(primaryKey));
    }
}
