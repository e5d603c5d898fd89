package io.erasure.controlplane.run;

import io.erasure.model.key.DeterministicId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Proves which keys a run deleted without listing them: each batch reports the SHA-256 of the sorted
 * canonical keys it deleted ({@code keysDigest}, see {@code CanonicalKey.digestOf}); this is the SHA-256
 * over those batch digests, sorted, with their number. Whoever holds the batch digests (or the keys, batch
 * by batch) recomputes it with {@code DeterministicId.sha256Hex(ALGORITHM, n, digest1, ..., digestN)}.
 *
 * @param batches how many batch digests went in (batches that deleted no key report none)
 * @param sha256  null when no batch deleted a key
 */
public record DeletedKeysDigest(String algorithm, int batches, String sha256) {

    public static final String ALGORITHM = "deleted-keys-digests-v1";

    public static DeletedKeysDigest of(Collection<String> batchDigests) {
        if (batchDigests.isEmpty()) {
            return new DeletedKeysDigest(ALGORITHM, 0, null);
        }
        List<String> parts = new ArrayList<>(batchDigests.size() + 2);
        parts.add(ALGORITHM);
        parts.add(Integer.toString(batchDigests.size()));
        batchDigests.stream().sorted().forEach(parts::add);
        return new DeletedKeysDigest(
                ALGORITHM, batchDigests.size(), DeterministicId.sha256Hex(parts.toArray(String[]::new)));
    }
}
