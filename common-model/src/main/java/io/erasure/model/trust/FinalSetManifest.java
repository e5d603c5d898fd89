package io.erasure.model.trust;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.key.DeterministicId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code runs/<runId>/final/manifest.json}: per part of a run's final set, its key count and a digest of its keys.
 * Validation writes it with the final set and reports its {@link #digest()}; the control plane signs that digest when
 * it authorizes the run ({@link Authorization.Kind#RUN}), so the deletion service can check a run's task against
 * the part it names without trusting whoever produced the task or wrote to S3.
 *
 * <p>The authorized final set is never rewritten: a re-validation (final set older than 24 h) writes what survives
 * elsewhere ({@code runs/<runId>/revalidated/}) and only removes keys, so its tasks' keys are still in the authorized
 * parts.
 */
public record FinalSetManifest(String runId, String dataset, List<Part> parts) {

    public record Part(int index, long keyCount, String keysDigest) {
        public Part {
            Require.inRange("part.index", index, 0, 99_999);
            Require.nonNegative("part.keyCount", keyCount);
            Require.nonBlank("part.keysDigest", keysDigest);
        }

        /** The entry of part {@code index} holding {@code keys}. */
        public static Part of(int index, Collection<? extends Map<String, ?>> keys) {
            long distinct = keys.stream().map(CanonicalKey::render).distinct().count();
            return new Part(index, distinct, FinalSetManifest.keysDigest(keys));
        }
    }

    public FinalSetManifest {
        Names.opaqueId("manifest.runId", runId);
        Names.datasetName("manifest.dataset", dataset);
        parts = Require.listOf("manifest.parts", parts).stream()
                .sorted(Comparator.comparingInt(Part::index))
                .toList();
        for (int i = 1; i < parts.size(); i++) {
            if (parts.get(i).index() == parts.get(i - 1).index()) {
                throw new IllegalArgumentException(
                        "manifest.parts lists part " + parts.get(i).index() + " twice");
            }
        }
    }

    /** SHA-256 (hex) over the run, the dataset and every part's index, key count and keys digest, in index order. */
    public String digest() {
        List<String> fields = new ArrayList<>(3 + parts.size() * 3);
        fields.add("final-set-manifest-v1");
        fields.add(runId);
        fields.add(dataset);
        for (Part part : parts) {
            fields.add(Integer.toString(part.index()));
            fields.add(Long.toString(part.keyCount()));
            fields.add(part.keysDigest());
        }
        return DeterministicId.sha256Hex(fields.toArray(String[]::new));
    }

    /** The part with {@code index}, or null. */
    public @Nullable Part part(int index) {
        return parts.stream().filter(p -> p.index() == index).findFirst().orElse(null);
    }

    /** SHA-256 (hex) of a part's distinct keys, independent of their order and of how numbers were typed. */
    public static String keysDigest(Collection<? extends Map<String, ?>> keys) {
        List<String> fields = new ArrayList<>(keys.size() + 1);
        fields.add("final-part-keys-v1");
        keys.stream().map(CanonicalKey::render).distinct().sorted().forEach(fields::add);
        return DeterministicId.sha256Hex(fields.toArray(String[]::new));
    }
}
