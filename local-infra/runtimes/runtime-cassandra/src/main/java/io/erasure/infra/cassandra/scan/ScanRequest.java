package io.erasure.infra.cassandra.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one scan reads and where it writes, as the parent hands it over in a JSON file:
 *
 * <pre>
 * {"keyspace": "shop", "table": "orders", "schema": "/unit/schema.cql",
 *  "sstableDirectories": ["/unit/node-1", "/unit/node-2"],
 *  "keyColumns": ["customer_id", "order_id"], "identifierColumn": "customer_id",
 *  "identifiers": "/unit/identifiers.set", "nowInSeconds": 1764806400,
 *  "tokenRange": {"after": -9223372036854775808, "upTo": 0},
 *  "candidates": "/unit/candidates.jsonl", "summary": "/unit/summary.json"}
 * </pre>
 *
 * {@code schema} holds the table's {@code CREATE TABLE} (a whole schema dump, as Medusa's {@code schema.cql}, will
 * do); every directory holds SSTable components of that table (one replica's each: rows are merged across them);
 * {@code tokenRange} (optional, Murmur3 tokens, {@code (after, upTo]}) limits the scan to the partitions of one unit;
 * {@code ceiling} (benchmarks only) merges and reads the rows without looking identifiers up.
 */
record ScanRequest(
        String keyspace,
        String table,
        Path schema,
        List<Path> sstableDirectories,
        List<String> keyColumns,
        String identifierColumn,
        Path identifiers,
        long nowInSeconds,
        TokenRange tokenRange,
        Path candidates,
        Path summary,
        boolean ceiling) {

    /** Partitions whose Murmur3 token is in {@code (after, upTo]}. */
    record TokenRange(long after, long upTo) {}

    static ScanRequest read(String[] args) throws IOException {
        if (args.length != 1) {
            throw new ScanRefused("usage: SSTableScanMain <request.json>, got " + Arrays.toString(args));
        }
        JsonNode node = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        List<Path> directories = new ArrayList<>();
        node.path("sstableDirectories").forEach(d -> directories.add(Path.of(d.asText())));
        List<String> keyColumns = new ArrayList<>();
        node.path("keyColumns").forEach(c -> keyColumns.add(c.asText()));
        JsonNode range = node.get("tokenRange");
        ScanRequest request = new ScanRequest(
                text(node, "keyspace"),
                text(node, "table"),
                Path.of(text(node, "schema")),
                List.copyOf(directories),
                List.copyOf(keyColumns),
                text(node, "identifierColumn"),
                Path.of(text(node, "identifiers")),
                node.path("nowInSeconds").asLong(0),
                range == null || range.isNull()
                        ? null
                        : new TokenRange(
                                range.path("after").asLong(), range.path("upTo").asLong()),
                Path.of(text(node, "candidates")),
                Path.of(text(node, "summary")),
                node.path("ceiling").asBoolean(false));
        if (directories.isEmpty()) {
            throw new ScanRefused("the request names no SSTable directory");
        }
        if (keyColumns.isEmpty()) {
            throw new ScanRefused("the request names no key column");
        }
        if (request.nowInSeconds() <= 0) {
            throw new ScanRefused("the request has no nowInSeconds: TTLs are applied as of a given time");
        }
        if (request.tokenRange() != null
                && request.tokenRange().after() >= request.tokenRange().upTo()) {
            throw new ScanRefused("token range " + request.tokenRange() + " is empty: after must be below upTo");
        }
        return request;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new ScanRefused("the request has no " + field);
        }
        return value.asText();
    }
}
