package io.erasure.infra.cassandra.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.erasure.identifiers.IdentifierSet;
import io.erasure.identifiers.IdentifierSetFile;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.partitions.UnfilteredPartitionIterator;
import org.apache.cassandra.db.partitions.UnfilteredPartitionIterators;
import org.apache.cassandra.db.rows.UnfilteredRowIterator;
import org.apache.cassandra.io.sstable.CorruptSSTableException;
import org.apache.cassandra.io.sstable.format.SSTableReader;

/**
 * Reads one audit unit of a Cassandra table's backup offline, in a child JVM on the runtime-cassandra classpath (no
 * service depends on cassandra-all): every SSTable of every replica the unit names, merged partition by partition
 * by Cassandra's own reader, as a read at {@code nowInSeconds} would see them: partition, range, row and cell
 * tombstones applied, newer cells winning, expired TTLs dead. Each live row whose identifier is in the audit's set
 * becomes a candidate ({@code {"key": {...}, "identifier": ..., "writeTimeMicros": ...}}, one per line), and the
 * summary counts the rows scanned, the candidates and what tombstones still hold on disk.
 *
 * <p>Argument: {@code <request.json>}, see {@link ScanRequest}. The child decides nothing about deletion: it only
 * reports; the audit's validation re-checks every candidate against live data. Its stdout is a log; results come
 * back as files, the summary last (written to a temporary name, then moved), so a summary that exists is whole. A
 * unit the reader refuses (schema, key, identifier type, a corrupt SSTable: the same every time) writes
 * {@code {"refused": "<what and how to fix it>"}} as the summary; any other failure (memory, disk) writes
 * {@code {"error": "..."}}, which the parent may retry. Both exit 1.
 */
public final class SSTableScanMain {

    private SSTableScanMain() {}

    public static void main(String[] args) {
        int status = 0;
        ScanRequest request = null;
        try {
            request = ScanRequest.read(args);
            run(request);
        } catch (Throwable e) {
            e.printStackTrace();
            status = 1;
            if (request != null) {
                writeFailure(request.summary(), e);
            }
        }
        System.exit(status); // Cassandra's classes leave non-daemon threads behind
    }

    static void run(ScanRequest request) throws IOException {
        DatabaseDescriptor.clientInitialization(false);
        TableReader table = TableReader.open(request);
        IdentifierSet identifiers = IdentifierSetFile.read(request.identifiers());
        if (!table.accepts(identifiers.kind())) {
            throw new ScanRefused("the identifier set holds " + identifiers.kind() + " identifiers, but column "
                    + request.identifierColumn() + " is " + table.identifierType()
                    + ": integer identifiers can only be compared with an integer column");
        }
        ObjectMapper json = new ObjectMapper();
        RowVisitor visitor = new RowVisitor(table, identifiers, request.nowInSeconds(), request.ceiling());
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long cpuStart = cpu.getCurrentThreadCpuTime();
        long wallStart = System.nanoTime();
        Path candidatesTemp =
                request.candidates().resolveSibling(request.candidates().getFileName() + ".partial");
        List<SSTableReader> sstables = table.sstables();
        try (BufferedWriter out = Files.newBufferedWriter(candidatesTemp, StandardCharsets.UTF_8)) {
            List<UnfilteredPartitionIterator> scanners = new ArrayList<>(sstables.size());
            for (SSTableReader sstable : sstables) {
                scanners.add(table.scanner(sstable));
            }
            try (UnfilteredPartitionIterator merged =
                    UnfilteredPartitionIterators.merge(scanners, UnfilteredPartitionIterators.MergeListener.NOOP)) {
                while (merged.hasNext()) {
                    try (UnfilteredRowIterator partition = merged.next()) {
                        visitor.partition(partition, candidate -> {
                            out.write(json.writeValueAsString(candidate));
                            out.write('\n');
                        });
                    }
                }
            }
        } finally {
            for (SSTableReader sstable : sstables) {
                sstable.selfRef().release();
            }
        }
        long scanCpu = cpu.getCurrentThreadCpuTime() - cpuStart;
        long scanWall = System.nanoTime() - wallStart;
        Files.move(candidatesTemp, request.candidates(), StandardCopyOption.REPLACE_EXISTING);
        ObjectNode summary = json.createObjectNode();
        summary.put("scanCpuNanos", scanCpu);
        summary.put("scanWallNanos", scanWall);
        summary.put("sstables", sstables.size());
        summary.put("partitions", visitor.partitions());
        summary.put("rowsScanned", visitor.rowsScanned());
        summary.put("candidates", visitor.candidates());
        summary.put("deletedNotPurged", visitor.deletedNotPurged());
        summary.put("staticOnlyPartitions", visitor.staticOnlyPartitions());
        writeSummary(request.summary(), summary);
        System.out.println("scanned " + visitor.rowsScanned() + " live rows of " + sstables.size() + " SSTables: "
                + visitor.candidates() + " candidates, " + visitor.deletedNotPurged()
                + " deleted but not yet purged");
    }

    private static void writeFailure(Path summaryFile, Throwable e) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode summary = json.createObjectNode();
        if (e instanceof ScanRefused) {
            summary.put("refused", e.getMessage());
        } else if (e instanceof CorruptSSTableException) {
            summary.put("refused", "an SSTable is corrupt although its checksum matched the backup's: " + e);
        } else {
            summary.put("error", describe(e));
        }
        try {
            writeSummary(summaryFile, summary);
        } catch (IOException again) {
            again.printStackTrace();
        }
    }

    private static String describe(Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        String first = trace.toString()
                .lines()
                .limit(6)
                .reduce((a, b) -> a + " | " + b)
                .orElse("");
        return "the SSTable reader failed: " + first;
    }

    private static void writeSummary(Path file, JsonNode summary) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(temp, new ObjectMapper().writeValueAsString(summary), StandardCharsets.UTF_8);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
