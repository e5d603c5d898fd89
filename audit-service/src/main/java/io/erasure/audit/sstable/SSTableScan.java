package io.erasure.audit.sstable;

import io.erasure.audit.join.CandidateSink;
import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.model.candidate.Candidate;
import io.erasure.process.ChildJvm;
import io.erasure.process.ConfiguredClasspath;
import io.erasure.process.JavaRuntimes;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scans one unit of a Cassandra backup's SSTables for candidates: runs {@code SSTableScanMain} in a child JVM on
 * the runtime-cassandra classpath (cassandra-all is loaded there and nowhere else), hands it the request and the
 * identifier set as files, and reads its candidates back into the join's sink. The child reads every replica's
 * SSTables of the unit merged, as a read at the request's time would see them (ADR 0011).
 */
public final class SSTableScan {

    static final String MAIN_CLASS = "io.erasure.infra.cassandra.scan.SSTableScanMain";

    private final String classpath;
    private final Duration timeout;
    private final String heap;
    private final JsonMapper json = JsonMapper.builder().build();

    /**
     * @param classpath the child's classpath (the runtime-cassandra jar, identifier-set, process-guard and
     *                  cassandra-all with its dependencies)
     */
    public SSTableScan(String classpath, Duration timeout, String heap) {
        this.classpath = classpath;
        this.timeout = timeout;
        this.heap = heap;
    }

    /** The setting that names the reader's classpath in a deployment. */
    public static final String CLASSPATH_PROPERTY = "erasure.audit.sstable-reader.classpath";

    private static final Map<String, String> REQUIRED = new LinkedHashMap<>();

    static {
        REQUIRED.put(MAIN_CLASS, "the runtime-cassandra jar");
        REQUIRED.put("io.erasure.identifiers.IdentifierSetFile", "the identifier-set jar");
        REQUIRED.put("io.erasure.infra.guard.OrphanGuard", "the process-guard jar");
        REQUIRED.put("org.apache.cassandra.io.sstable.format.SSTableReader", "cassandra-all");
    }

    /**
     * The reader's classpath: {@code configured} (a deployment's {@link #CLASSPATH_PROPERTY}), checked for every class
     * the reader needs, or for a blank one runtime-cassandra's on this JVM's classpath.
     *
     * @throws IllegalStateException naming the setting and what is missing
     */
    public static String classpath(String configured) {
        return ConfiguredClasspath.resolve(
                configured,
                CLASSPATH_PROPERTY,
                "runtime-cassandra",
                "auditing a Cassandra backup (Medusa's or nodetool snapshots) needs the SSTable reader's classpath",
                REQUIRED);
    }

    /** A scan on the runtime-cassandra classpath of this JVM (tests, the local platform). */
    public static SSTableScan onRuntimeClasspath(Duration timeout, String heap) {
        return new SSTableScan(classpath(""), timeout, heap);
    }

    /**
     * Scans {@code unit}'s SSTables, in {@code workDir} (existing, the caller's to remove), against the identifier
     * set in {@code identifiersFile} ({@code IdentifierSetFile}), handing each candidate to {@code sink}.
     *
     * @throws BackupIntegrityException if the child refuses the unit (schema, key or identifier types, a corrupt
     *                                  SSTable): the same every time, its message says what
     * @throws IOException              if the child could not be run, failed otherwise (memory, disk) or died
     *                                  without a summary: worth a retry, the message ends with its log's
     */
    public ScanResult scan(SSTableUnit unit, Path identifiersFile, Path workDir, CandidateSink sink)
            throws IOException {
        return scan(unit, identifiersFile, workDir, sink, false);
    }

    /** The reader's ceiling for benchmarks: the same SSTables merged and read, with no identifier looked up. */
    public ScanResult ceiling(SSTableUnit unit, Path identifiersFile, Path workDir) throws IOException {
        return scan(unit, identifiersFile, workDir, candidate -> {}, true);
    }

    private ScanResult scan(SSTableUnit unit, Path identifiersFile, Path workDir, CandidateSink sink, boolean ceiling)
            throws IOException {
        Path request = workDir.resolve("request.json");
        Path candidates = workDir.resolve("candidates.jsonl");
        Path summary = workDir.resolve("summary.json");
        Files.deleteIfExists(candidates);
        Files.deleteIfExists(summary);
        Map<String, Object> fields = requestOf(unit, identifiersFile, candidates, summary);
        fields.put("ceiling", ceiling);
        Files.writeString(request, json.writeValueAsString(fields));
        List<String> jvmArgs = new ArrayList<>(List.of("-Xmx" + heap, "-XX:+UseSerialGC"));
        jvmArgs.addAll(JavaRuntimes.CASSANDRA_JAVA17_FLAGS);
        ChildJvm child = ChildJvm.start(
                "sstable-scan",
                classpath,
                JavaRuntimes.java17(),
                jvmArgs,
                MAIN_CLASS,
                List.of(request.toString()),
                workDir,
                workDir.resolve("scan.log"));
        String failure = null;
        try {
            child.awaitExit(timeout);
        } catch (RuntimeException e) {
            // a non-zero exit or a timeout: the message holds the end of the child's log
            failure = e.getMessage();
        } finally {
            child.close();
        }
        if (!Files.exists(summary)) {
            throw new IOException("the SSTable reader of " + unit.describe() + " left no summary: "
                    + (failure != null ? failure : child.logTail()));
        }
        JsonNode result = json.readTree(summary.toFile());
        if (result.has("refused")) {
            throw new BackupIntegrityException("the SSTables of " + unit.describe() + " cannot be audited: "
                    + result.get("refused").asString());
        }
        if (result.has("error")) {
            throw new IOException("the SSTable reader of " + unit.describe() + " failed: "
                    + result.get("error").asString());
        }
        long handed = handOver(candidates, sink);
        ScanResult scanned = new ScanResult(
                result.get("sstables").asInt(),
                result.get("rowsScanned").asLong(),
                result.get("candidates").asLong(),
                result.get("deletedNotPurged").asLong(),
                result.get("staticOnlyPartitions").asLong(),
                result.get("scanCpuNanos").asLong());
        if (handed != scanned.candidates()) {
            throw new IOException("the SSTable reader of " + unit.describe() + " counted " + scanned.candidates()
                    + " candidates but wrote " + handed);
        }
        return scanned;
    }

    private Map<String, Object> requestOf(SSTableUnit unit, Path identifiersFile, Path candidates, Path summary) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("keyspace", unit.keyspace());
        request.put("table", unit.table());
        request.put("schema", unit.schemaFile().toString());
        request.put(
                "sstableDirectories",
                unit.sstableDirectories().stream().map(Path::toString).toList());
        request.put("keyColumns", unit.keyColumns());
        request.put("identifierColumn", unit.identifierColumn());
        request.put("identifiers", identifiersFile.toString());
        request.put("nowInSeconds", unit.nowInSeconds());
        if (unit.tokenRange() != null) {
            request.put(
                    "tokenRange",
                    Map.of(
                            "after", unit.tokenRange().after(),
                            "upTo", unit.tokenRange().upTo()));
        }
        request.put("candidates", candidates.toString());
        request.put("summary", summary.toString());
        return request;
    }

    private long handOver(Path candidates, CandidateSink sink) throws IOException {
        long count = 0;
        try (BufferedReader lines = Files.newBufferedReader(candidates, StandardCharsets.UTF_8)) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    sink.accept(json.readValue(line, Candidate.class));
                    count++;
                }
            }
        }
        return count;
    }
}
