package io.erasure.deletion.trust;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.FinalSetManifest;
import io.erasure.store.spi.StoreException;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The authorized final sets of runs, as the deletion service checks a run's task against them: the manifest whose
 * digest the control plane signed ({@code runs/<runId>/final/manifest.json}) and the part a task names, whose keys
 * must digest to what the manifest says. Both are read from S3 once and kept (a few manifests and parts, least
 * recently used first out), shared by every lane: concurrent tasks of one part wait for the one read of it rather than
 * each reading it (a Caffeine cache). S3 being unreachable is retriable and not kept; a missing or altered
 * manifest or part is a refusal, kept for {@code refusalTtl} so a stream of tasks naming it does not re-read it each.
 */
public class AuthorizedFinalSets {

    private static final int MANIFESTS = 64;
    private static final int PARTS = 16;
    /** How long a missing or altered manifest or part is remembered as such. */
    public static final Duration REFUSAL_TTL = Duration.ofSeconds(30);

    private final S3Client s3;
    private final String bucket;
    private final JsonMapper json;
    private final Cache<String, Loaded<SignedSet>> manifests;
    private final Cache<String, Loaded<Set<String>>> parts;

    public AuthorizedFinalSets(S3Client s3, String bucket, JsonMapper json) {
        this(s3, bucket, json, REFUSAL_TTL);
    }

    public AuthorizedFinalSets(S3Client s3, String bucket, JsonMapper json, Duration refusalTtl) {
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
        this.manifests = cache(MANIFESTS, refusalTtl);
        this.parts = cache(PARTS, refusalTtl);
    }

    /** A run's signed final-set manifest, and the keys its parts hold in all (what a paced task may plan at most). */
    private record SignedSet(FinalSetManifest manifest, long keyCount) {
        static SignedSet of(FinalSetManifest manifest) {
            return new SignedSet(
                    manifest,
                    manifest.parts().stream()
                            .mapToLong(FinalSetManifest.Part::keyCount)
                            .sum());
        }
    }

    /** What a read found: a value, or the refusal of the tasks that name it. */
    private record Loaded<V>(V value, Refusal refusal) {
        static <V> Loaded<V> of(V value) {
            return new Loaded<>(value, null);
        }

        static <V> Loaded<V> refused(Refusal refusal) {
            return new Loaded<>(null, refusal);
        }
    }

    /**
     * Loads each key once (concurrent callers wait for the one read; a read that throws is not kept and its waiters
     * get the same exception) and keeps a value until evicted, a refusal for {@code refusalTtl} only: what was missing
     * may be written meanwhile.
     */
    private static <V> Cache<String, Loaded<V>> cache(int size, Duration refusalTtl) {
        return Caffeine.newBuilder()
                .maximumSize(size)
                .expireAfter(new Expiry<String, Loaded<V>>() {
                    @Override
                    public long expireAfterCreate(String key, Loaded<V> loaded, long now) {
                        return loaded.refusal() == null ? Long.MAX_VALUE : refusalTtl.toNanos();
                    }

                    @Override
                    public long expireAfterUpdate(String key, Loaded<V> loaded, long now, long current) {
                        return expireAfterCreate(key, loaded, now);
                    }

                    @Override
                    public long expireAfterRead(String key, Loaded<V> loaded, long now, long current) {
                        return current;
                    }
                })
                .build();
    }

    /**
     * Why {@code keys} are not all in part {@code part} of {@code run}'s final set whose manifest digests to
     * {@code setDigest}; empty when they are.
     */
    public Optional<Refusal> refusal(
            RunId run, String dataset, String setDigest, int part, List<Map<String, Object>> keys) {
        return refusal(run, dataset, setDigest, part, keys, 0);
    }

    /**
     * As {@link #refusal(RunId, String, String, int, List)}, and for a paced task, why its window plans more than the
     * {@code plannedKeys} its final set holds (the pacer would hurry); {@code plannedKeys} 0 for an unpaced task.
     */
    public Optional<Refusal> refusal(
            RunId run, String dataset, String setDigest, int part, List<Map<String, Object>> keys, long plannedKeys) {
        String manifestKey = S3Layout.finalManifestKey(run);
        Loaded<SignedSet> manifest =
                manifests.get(manifestKey + "@" + setDigest, k -> loadManifest(run, dataset, setDigest, manifestKey));
        if (manifest.refusal() != null) {
            return Optional.of(manifest.refusal());
        }
        long finalKeys = manifest.value().keyCount();
        if (plannedKeys > finalKeys) {
            return Optional.of(Refusal.of(
                    Refusal.PACING_MISMATCH,
                    "its spread window plans " + plannedKeys + " keys, but run " + run.value()
                            + "'s authorized final set holds " + finalKeys));
        }
        FinalSetManifest.Part entry = manifest.value().manifest().part(part);
        if (entry == null) {
            return Optional.of(Refusal.of(
                    Refusal.KEYS_NOT_COVERED,
                    "part " + part + " is not part of run " + run.value() + "'s authorized final set"));
        }
        String partKey = S3Layout.finalPartKey(run, part);
        Loaded<Set<String>> authorized =
                parts.get(partKey + "@" + entry.keysDigest(), k -> loadPart(partKey, entry.keysDigest()));
        if (authorized.refusal() != null) {
            return Optional.of(authorized.refusal());
        }
        List<Map<String, Object>> outside = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            if (!authorized.value().contains(CanonicalKey.render(key))) {
                outside.add(key);
            }
        }
        if (!outside.isEmpty()) {
            // a key is a column value: the refusal (published, and shown beside the run) names it by its log key hash
            return Optional.of(Refusal.of(
                    Refusal.KEYS_NOT_COVERED,
                    outside.size() + " of its " + keys.size()
                            + " keys are not in part " + part + " of run " + run.value()
                            + "'s authorized final set (e.g. "
                            + Topics.logKey(dataset, outside.get(0)) + ")"));
        }
        return Optional.empty();
    }

    private Loaded<SignedSet> loadManifest(RunId run, String dataset, String setDigest, String manifestKey) {
        Optional<byte[]> bytes = read(manifestKey);
        if (bytes.isEmpty()) {
            return Loaded.refused(Refusal.of(
                    Refusal.FINAL_SET_MISSING,
                    "run " + run.value() + " has no final-set manifest at s3://" + bucket + "/" + manifestKey));
        }
        FinalSetManifest manifest;
        try {
            manifest = json.readValue(bytes.get(), FinalSetManifest.class);
        } catch (RuntimeException e) {
            return Loaded.refused(Refusal.of(
                    Refusal.FINAL_SET_MISSING,
                    "the final-set manifest s3://" + bucket + "/" + manifestKey + " cannot be read: "
                            + e.getMessage()));
        }
        if (!manifest.digest().equals(setDigest)
                || !manifest.runId().equals(run.value())
                || !manifest.dataset().equals(dataset)) {
            return Loaded.refused(Refusal.of(
                    Refusal.FINAL_SET_ALTERED,
                    "the final-set manifest of run " + run.value()
                            + " is not the one the control plane authorized (its digest differs:"
                            + " altered after authorization, or another run's)"));
        }
        return Loaded.of(SignedSet.of(manifest));
    }

    private Loaded<Set<String>> loadPart(String partKey, String keysDigest) {
        Optional<byte[]> bytes = read(partKey);
        if (bytes.isEmpty()) {
            return Loaded.refused(Refusal.of(
                    Refusal.FINAL_SET_MISSING, "final-set part s3://" + bucket + "/" + partKey + " is missing"));
        }
        List<Map<String, Object>> partKeys;
        try {
            partKeys = keysOf(bytes.get());
        } catch (IOException | RuntimeException e) {
            return Loaded.refused(Refusal.of(
                    Refusal.FINAL_SET_MISSING,
                    "final-set part s3://" + bucket + "/" + partKey + " cannot be read: " + e.getMessage()));
        }
        if (!FinalSetManifest.keysDigest(partKeys).equals(keysDigest)) {
            return Loaded.refused(Refusal.of(
                    Refusal.FINAL_SET_ALTERED,
                    "final-set part s3://" + bucket + "/" + partKey
                            + " does not hold the keys the signed manifest lists (altered after authorization)"));
        }
        Set<String> authorized = new HashSet<>(partKeys.size() * 2);
        for (Map<String, Object> key : partKeys) {
            authorized.add(CanonicalKey.render(key));
        }
        return Loaded.of(Collections.unmodifiableSet(authorized));
    }

    private Optional<byte[]> read(String key) {
        try {
            return Optional.of(
                    s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw new StoreException.Retriable(
                    "could not read s3://" + bucket + "/" + key + " to check a task against"
                            + " its authorized final set: " + e.getMessage(),
                    e);
        }
    }

    private List<Map<String, Object>> keysOf(byte[] gzipJsonLines) throws IOException {
        List<Map<String, Object>> keys = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(new ByteArrayInputStream(gzipJsonLines)), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    keys.add(json.readValue(line, Candidate.class).key());
                }
            }
        }
        return keys;
    }
}
