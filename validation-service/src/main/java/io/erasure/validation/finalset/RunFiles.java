package io.erasure.validation.finalset;

import io.erasure.model.candidate.Candidate;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's candidate and final-set files in S3: gzip JSON Lines of {@link Candidate}, one part file per
 * audit unit ({@code part-NNNNN.jsonl.gz}), plus small JSON documents such as the report.
 */
@Component
public class RunFiles {

    private static final Pattern PART = Pattern.compile(".*/part-\\d{5}\\.jsonl\\.gz");

    private final S3Client s3;
    private final JsonMapper json;
    private final String bucket;

    public RunFiles(S3Client s3, JsonMapper json, @Value("${erasure.s3.bucket}") String bucket) {
        this.s3 = s3;
        this.json = json;
        this.bucket = bucket;
    }

    /** The part files under {@code prefix}, in name order (other objects such as unit markers are skipped). */
    public List<String> parts(String prefix) {
        return s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents().stream()
                .map(S3Object::key)
                .filter(key -> PART.matcher(key).matches())
                .sorted()
                .toList();
    }

    public List<Candidate> readPart(String key) {
        List<Candidate> candidates = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(s3.getObject(r -> r.bucket(bucket).key(key)), 64 * 1024),
                StandardCharsets.UTF_8))) {
            String line;
            int number = 0;
            while ((line = lines.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    candidates.add(json.readValue(line, Candidate.class));
                } catch (RuntimeException e) {
                    throw new IllegalStateException(
                            "line " + number + " of s3://" + bucket + "/" + key
                                    + " is not a candidate {\"key\":{...},\"identifier\":...,\"writeTimeMicros\":...}: "
                                    + e.getMessage(),
                            e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read s3://" + bucket + "/" + key + ": " + e.getMessage(), e);
        }
        return candidates;
    }

    /** Writes (or overwrites: same key, same content on a redo) one part file. */
    public void writePart(String key, List<Candidate> candidates) {
        writeJsonLines(key, candidates);
    }

    /** Writes (or overwrites) a gzip JSON Lines file: one JSON document per line. */
    public void writeJsonLines(String key, List<?> documents) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes, 64 * 1024)) {
            for (Object document : documents) {
                gzip.write(json.writeValueAsBytes(document));
                gzip.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        s3.putObject(
                r -> r.bucket(bucket).key(key).contentType("application/gzip"),
                RequestBody.fromBytes(bytes.toByteArray()));
    }

    /** The documents of a gzip JSON Lines file, or an empty list if there is no such file. */
    public <T> List<T> readJsonLines(String key, Class<T> type) {
        List<T> documents = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(s3.getObject(r -> r.bucket(bucket).key(key)), 64 * 1024),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    documents.add(json.readValue(line, type));
                }
            }
        } catch (NoSuchKeyException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read s3://" + bucket + "/" + key + ": " + e.getMessage(), e);
        }
        return documents;
    }

    /** Deletes one object; nothing happens if it does not exist. */
    public void delete(String key) {
        s3.deleteObject(r -> r.bucket(bucket).key(key));
    }

    /** Deletes the part files under {@code prefix} (a re-validation replaces a final set). */
    public void deleteParts(String prefix) {
        for (String key : parts(prefix)) {
            s3.deleteObject(r -> r.bucket(bucket).key(key));
        }
    }

    public void writeJson(String key, Object document) {
        s3.putObject(
                r -> r.bucket(bucket).key(key).contentType("application/json"),
                RequestBody.fromBytes(json.writeValueAsBytes(document)));
    }

    public <T> Optional<T> readJson(String key, Class<T> type) {
        try {
            return Optional.of(json.readValue(
                    s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asByteArray(), type));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }
}
