package io.erasure.infra.cassandra.bulk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.cassandra.io.sstable.CQLSSTableWriter;

/**
 * Writes SSTables for a bulk restore, in a child JVM on the runtime-cassandra classpath (so that no
 * service depends on cassandra-all). It decides nothing: the parent already chose which rows to restore,
 * their write times and their remaining TTLs; this writes exactly those cells, then exits.
 *
 * <p>Arguments: {@code <schema.cql> <rows.jsonl> <output-dir>}.
 * <ul>
 *   <li>{@code schema.cql}: {@code CREATE TYPE} statements (if any) then one {@code CREATE TABLE}, each
 *       ending with {@code ;} at the end of a line.</li>
 *   <li>{@code rows.jsonl}: one object per line, {@code {"json": "<row as Cassandra JSON>", "ts": <µs>,
 *       "ttl": <seconds, 0 = none, absent = the table's default>}}; several lines may write the same row
 *       (columns with different TTLs) and are merged.</li>
 *   <li>{@code output-dir}: existing, empty; receives the SSTables ({@code nodetool import} or
 *       {@code sstableloader} loads them).</li>
 * </ul>
 * Each row is written with {@code INSERT INTO t JSON ? DEFAULT UNSET USING TIMESTAMP ? AND TTL ?}: the
 * same statement and semantics as the online restore.
 */
public final class SSTableWriterMain {

    private SSTableWriterMain() {}

    public static void main(String[] args) {
        try {
            write(args);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1); // the writer's non-daemon threads would otherwise keep a failed child alive
        }
        System.exit(0); // the writer leaves non-daemon threads behind
    }

    private static void write(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException(
                    "usage: SSTableWriterMain <schema.cql> <rows.jsonl> <output-dir>, got " + Arrays.toString(args));
        }
        List<String> statements = statements(Files.readString(Path.of(args[0])));
        String createTable = statements.get(statements.size() - 1);
        String table = createTable.replaceFirst(
                "(?is)^\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\S+?)\\s*\\(.*$", "$1");

        CQLSSTableWriter.Builder builder = CQLSSTableWriter.builder()
                .inDirectory(args[2])
                .forTable(createTable)
                .using("INSERT INTO " + table + " JSON ? DEFAULT UNSET USING TIMESTAMP ? AND TTL ?")
                .withBufferSizeInMiB(64);
        for (String type : statements.subList(0, statements.size() - 1)) {
            builder.withType(type);
        }
        ObjectMapper mapper = new ObjectMapper();
        long rows = 0;
        try (CQLSSTableWriter writer = builder.build();
                BufferedReader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode row = mapper.readTree(line);
                JsonNode ttl = row.get("ttl");
                List<Object> values = new ArrayList<>(3);
                values.add(row.get("json").asText());
                values.add(row.get("ts").asLong());
                // an unset TTL applies the table's default, as the online restore of a key-only row does
                values.add(ttl == null || ttl.isNull() ? CQLSSTableWriter.UNSET_VALUE : (Object) ttl.asInt());
                writer.addRow(values);
                rows++;
            }
        }
        System.out.println("wrote " + rows + " rows of " + table + " into " + args[2]);
    }

    private static List<String> statements(String text) {
        List<String> statements = new ArrayList<>();
        for (String part : text.split(";\\s*(\\r?\\n|$)")) {
            if (!part.isBlank()) {
                statements.add(part.trim());
            }
        }
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("the schema file holds no CREATE TABLE statement");
        }
        return statements;
    }
}
