package io.erasure.deletion.trust;

import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.FinalSetManifest;
import io.erasure.store.spi.StoreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * recently used first out), so the tasks of one part cost one read. S3 being unreachable is retriable; a missing or
 * altered manifest or part is a refusal.
 */
public class AuthorizedFinalSets {

    private static final int MANIFESTS = 64;
    private static final int PARTS = 16;

    private final S3Client s3;
    private final String bucket;
    private final JsonMapper json;
    private final Map<String, FinalSetManifest> manifests = lru(MANIFESTS);
    private final Map<String, Set<String>> parts = lru(PARTS);

    public AuthorizedFinalSets(S3Client s3, String bucket, JsonMapper json) {
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
    }

    /**
     * Why {@code keys} are not all in part {@code part} of {@code run}'s final set whose manifest digests to
     * {@code setDigest}; empty when they are.
     */
    public Optional<String> refusal(RunId run, String dataset, String setDigest, int part,
                                    List<Map<String, Object>> keys) {
        String manifestKey = S3Layout.finalManifestKey(run);
        FinalSetManifest manifest;
        synchronized (manifests) {
            manifest = manifests.get(manifestKey + "@" + setDigest);
        }
        if (manifest == null) {
            Optional<byte[]> bytes = read(manifestKey);
            if (bytes.isEmpty()) {
                return Optional.of("run " + run.value() + " has no final-set manifest at s3://" + bucket + "/" + manifestKey);
            }
            try {
                manifest = json.readValue(bytes.get(), FinalSetManifest.class);
            } catch (RuntimeException e) {
                return Optional.of("the final-set manifest s3://" + bucket + "/" + manifestKey + " cannot be read: "
                        + e.getMessage());
            }
            if (!manifest.digest().equals(setDigest) || !manifest.runId().equals(run.value())
                    || !manifest.dataset().equals(dataset)) {
                return Optional.of("the final-set manifest of run " + run.value() + " is not the one the control plane"
                        + " authorized (its digest differs: altered after authorization, or another run's)");
            }
            synchronized (manifests) {
                manifests.put(manifestKey + "@" + setDigest, manifest);
            }
        }
        FinalSetManifest.Part entry = manifest.part(part);
        if (entry == null) {
            return Optional.of("part " + part + " is not part of run " + run.value() + "'s authorized final set");
        }
        String partKey = S3Layout.finalPartKey(run, part);
        Set<String> authorized;
        synchronized (parts) {
            authorized = parts.get(partKey + "@" + entry.keysDigest());
        }
        if (authorized == null) {
            Optional<byte[]> bytes = read(partKey);
            if (bytes.isEmpty()) {
                return Optional.of("final-set part s3://" + bucket + "/" + partKey + " is missing");
            }
            List<Map<String, Object>> partKeys;
            try {
                partKeys = keysOf(bytes.get());
            } catch (IOException | RuntimeException e) {
                return Optional.of("final-set part s3://" + bucket + "/" + partKey + " cannot be read: " + e.getMessage());
            }
            if (!FinalSetManifest.keysDigest(partKeys).equals(entry.keysDigest())) {
                return Optional.of("final-set part s3://" + bucket + "/" + partKey + " does not hold the keys the signed"
                        + " manifest lists (altered after authorization)");
            }
            authorized = new HashSet<>(partKeys.size() * 2);
            for (Map<String, Object> key : partKeys) {
                authorized.add(CanonicalKey.render(key));
            }
            synchronized (parts) {
                parts.put(partKey + "@" + entry.keysDigest(), authorized);
            }
        }
        List<String> outside = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            String rendered = CanonicalKey.render(key);
            if (!authorized.contains(rendered)) {
                outside.add(rendered);
            }
        }
        if (!outside.isEmpty()) {
            return Optional.of(outside.size() + " of its " + keys.size() + " keys are not in part " + part + " of run "
                    + run.value() + "'s authorized final set (e.g. " + outside.get(0) + ")");
        }
        return Optional.empty();
    }

    private Optional<byte[]> read(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw new StoreException.Retriable("could not read s3://" + bucket + "/" + key + " to check a task against"
                    + " its authorized final set: " + e.getMessage(), e);
        }
    }

    private List<Map<String, Object>> keysOf(byte[] gzipJsonLines) throws IOException {
        List<Map<String, Object>> keys = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(new java.io.ByteArrayInputStream(gzipJsonLines)), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    keys.add(json.readValue(line, Candidate.class).key());
                }
            }
        }
        return keys;
    }

    private static <V> Map<String, V> lru(int size) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > size;
            }
        };
    }
}
