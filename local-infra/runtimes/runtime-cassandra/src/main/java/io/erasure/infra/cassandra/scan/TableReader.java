package io.erasure.infra.cassandra.scan;

import io.erasure.identifiers.IdentifierKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.cassandra.cql3.ColumnIdentifier;
import org.apache.cassandra.cql3.statements.schema.CreateTableStatement;
import org.apache.cassandra.db.marshal.AbstractType;
import org.apache.cassandra.dht.IPartitioner;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.Range;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.io.sstable.Component;
import org.apache.cassandra.io.sstable.Descriptor;
import org.apache.cassandra.io.sstable.ISSTableScanner;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.apache.cassandra.io.util.File;
import org.apache.cassandra.schema.ColumnMetadata;
import org.apache.cassandra.schema.TableMetadata;
import org.apache.cassandra.schema.TableMetadataRef;
import org.apache.cassandra.tools.Util;
import org.apache.cassandra.utils.FBUtilities;
import org.apache.cassandra.utils.Pair;

/**
 * The table a scan reads: its metadata from the backup's {@code schema.cql} (the real column names; the SSTables'
 * own headers name no key column), the SSTables of every directory opened against it, and where the identifier and
 * key columns are. Columns an SSTable holds that the schema no longer has were dropped: they are read as dropped,
 * so their cells count for nothing. A column dropped and added again is not known as such ({@code schema.cql} has no
 * drop times): its old cells read as live, which can only add candidates that validation then checks live.
 */
final class TableReader {

    /** CQL types whose values the audit spells as text identifiers (a number's digits, a UUID's canonical form). */
    private static final Set<String> TEXT_IDENTIFIER_TYPES =
            Set.of("text", "ascii", "varchar", "uuid", "timeuuid", "bigint", "int", "smallint", "tinyint", "varint");

    private static final Set<String> INTEGER_IDENTIFIER_TYPES = Set.of("bigint", "int", "smallint", "tinyint");

    private final ScanRequest request;
    private final TableMetadata metadata;
    private final List<SSTableReader> sstables;
    private final ColumnMetadata identifier;
    private final List<ColumnMetadata> keyColumns;

    private TableReader(
            ScanRequest request,
            TableMetadata metadata,
            List<SSTableReader> sstables,
            ColumnMetadata identifier,
            List<ColumnMetadata> keyColumns) {
        this.request = request;
        this.metadata = metadata;
        this.sstables = sstables;
        this.identifier = identifier;
        this.keyColumns = keyColumns;
    }

    static TableReader open(ScanRequest request) throws IOException {
        String createTable = createTable(Files.readString(request.schema()), request.keyspace(), request.table());
        List<Descriptor> descriptors = descriptors(request.sstableDirectories());
        IPartitioner partitioner = null;
        List<ColumnMetadata> onDisk = new ArrayList<>();
        for (Descriptor descriptor : descriptors) {
            TableMetadata header;
            try {
                header = Util.metadataFromSSTable(descriptor);
            } catch (IOException | RuntimeException e) {
                throw new ScanRefused(
                        "SSTable " + descriptor.baseFile() + " cannot be read (" + e + "): is every component there?",
                        e);
            }
            if (partitioner == null) {
                partitioner = header.partitioner;
            } else if (!partitioner.getClass().equals(header.partitioner.getClass())) {
                throw new ScanRefused("SSTable " + descriptor.baseFile() + " was written with "
                        + header.partitioner.getClass().getSimpleName() + ", others with "
                        + partitioner.getClass().getSimpleName() + ": they are not of one cluster");
            }
            header.regularAndStaticColumns().forEach(onDisk::add);
        }
        if (request.tokenRange() != null && !(partitioner instanceof Murmur3Partitioner)) {
            throw new ScanRefused("a token range can only be scanned on Murmur3Partitioner SSTables, these use "
                    + partitioner.getClass().getSimpleName());
        }
        TableMetadata metadata = metadata(createTable, request.keyspace(), partitioner, onDisk);
        List<ColumnMetadata> keyColumns = new ArrayList<>(metadata.partitionKeyColumns());
        keyColumns.addAll(metadata.clusteringColumns());
        List<String> keyNames = keyColumns.stream().map(c -> c.name.toString()).toList();
        if (!keyNames.equals(request.keyColumns())) {
            throw new ScanRefused("the backup's table " + request.keyspace() + "." + request.table()
                    + " has the primary key " + keyNames + ", the dataset says " + request.keyColumns()
                    + ": register the dataset with the table's key, in order");
        }
        for (ColumnMetadata column : keyColumns) {
            if (!PlatformValues.supported(column.type)) {
                throw new ScanRefused("key column " + column.name + " of " + request.keyspace() + "." + request.table()
                        + " is " + column.type.asCQL3Type() + ": keys of collections, tuples, user-defined types"
                        + " and vectors are not read from SSTables");
            }
        }
        ColumnMetadata identifier = metadata.getColumn(ColumnIdentifier.getInterned(request.identifierColumn(), true));
        if (identifier == null) {
            throw new ScanRefused("the backup's table " + request.keyspace() + "." + request.table() + " has no column "
                    + request.identifierColumn() + " (it has " + columnNames(metadata) + ")");
        }
        String type = cqlType(identifier);
        if (identifier.type.isMultiCell() || !TEXT_IDENTIFIER_TYPES.contains(type)) {
            throw new ScanRefused("identifier column " + identifier.name + " is " + identifier.type.asCQL3Type()
                    + ": identifiers must be text, uuid or integers");
        }
        List<SSTableReader> readers = new ArrayList<>(descriptors.size());
        try {
            for (Descriptor descriptor : descriptors) {
                readers.add(
                        SSTableReader.openNoValidation(null, descriptor, TableMetadataRef.forOfflineTools(metadata)));
            }
        } catch (RuntimeException e) {
            readers.forEach(r -> r.selfRef().release());
            throw new ScanRefused(
                    "an SSTable of " + request.keyspace() + "." + request.table()
                            + " cannot be opened against the backup's schema: " + e,
                    e);
        }
        return new TableReader(request, metadata, List.copyOf(readers), identifier, List.copyOf(keyColumns));
    }

    TableMetadata metadata() {
        return metadata;
    }

    List<SSTableReader> sstables() {
        return sstables;
    }

    ColumnMetadata identifier() {
        return identifier;
    }

    /** The primary key columns, partition key first. */
    List<ColumnMetadata> keyColumns() {
        return keyColumns;
    }

    String identifierType() {
        return identifier.type.asCQL3Type().toString();
    }

    /** The kinds of identifier set this column can be compared with: any as text, integers also as integers. */
    boolean accepts(IdentifierKind kind) {
        return kind == IdentifierKind.STRING || INTEGER_IDENTIFIER_TYPES.contains(cqlType(identifier));
    }

    ISSTableScanner scanner(SSTableReader sstable) {
        ScanRequest.TokenRange range = request.tokenRange();
        if (range == null) {
            return sstable.getScanner();
        }
        Token after = new Murmur3Partitioner.LongToken(range.after());
        Token upTo = new Murmur3Partitioner.LongToken(range.upTo());
        return sstable.getScanner(List.of(new Range<>(after, upTo)));
    }

    /**
     * The {@code CREATE TABLE} of {@code keyspace.table} in a schema file: statements end with {@code ;} at the end of
     * a line; the table may be named with or without its keyspace, quoted or not.
     */
    static String createTable(String schema, String keyspace, String table) {
        Pattern create = Pattern.compile(
                "^\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?((?:\"[^\"]+\"|\\w+)(?:\\.(?:\"[^\"]+\"|\\w+))?)"
                        + "\\s*\\(",
                Pattern.CASE_INSENSITIVE);
        for (String statement : schema.split(";\\s*(\\r?\\n|$)")) {
            Matcher m = create.matcher(statement);
            if (!m.find()) {
                continue;
            }
            String[] name = m.group(1).split("\\.(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
            String ks = name.length == 2 ? unquote(name[0]) : keyspace;
            String tb = unquote(name[name.length - 1]);
            if (ks.equals(keyspace) && tb.equals(table)) {
                return statement.trim();
            }
        }
        throw new ScanRefused("the backup's schema has no CREATE TABLE " + keyspace + "." + table
                + ": is this the backup of that table's keyspace?");
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1) : name.toLowerCase(Locale.ROOT);
    }

    private static TableMetadata metadata(
            String createTable, String keyspace, IPartitioner partitioner, List<ColumnMetadata> onDisk) {
        TableMetadata.Builder builder;
        TableMetadata parsed;
        try {
            parsed = CreateTableStatement.parse(createTable, keyspace)
                    .partitioner(partitioner)
                    .build();
            builder = CreateTableStatement.parse(createTable, keyspace).partitioner(partitioner);
        } catch (RuntimeException e) {
            throw new ScanRefused(
                    "the backup's CREATE TABLE of keyspace " + keyspace + " cannot be read (" + e.getMessage()
                            + "); tables with user-defined types are not read yet",
                    e);
        }
        long droppedAt = FBUtilities.timestampMicros();
        List<String> dropped = new ArrayList<>();
        for (ColumnMetadata column : onDisk) {
            if (parsed.getColumn(column.name) == null && !dropped.contains(column.name.toString())) {
                builder.recordColumnDrop(column, droppedAt);
                dropped.add(column.name.toString());
            }
        }
        if (!dropped.isEmpty()) {
            System.out.println("columns in the SSTables but not in the schema, read as dropped: " + dropped);
        }
        return builder.build();
    }

    private static List<Descriptor> descriptors(List<Path> directories) throws IOException {
        List<Descriptor> descriptors = new ArrayList<>();
        for (Path directory : directories) {
            if (!Files.isDirectory(directory)) {
                throw new ScanRefused("SSTable directory " + directory + " does not exist");
            }
            try (Stream<Path> files = Files.list(directory)) {
                for (Path data : files.filter(f -> f.getFileName().toString().endsWith("-Data.db"))
                        .sorted()
                        .toList()) {
                    Pair<Descriptor, Component> parsed = Descriptor.fromFileWithComponent(new File(data), false);
                    descriptors.add(parsed.left);
                }
            }
        }
        if (descriptors.isEmpty()) {
            throw new ScanRefused("no SSTable (no *-Data.db file) in " + directories);
        }
        return descriptors;
    }

    private static String cqlType(ColumnMetadata column) {
        AbstractType<?> type = column.type;
        return type.asCQL3Type().toString().toLowerCase(Locale.ROOT);
    }

    private static List<String> columnNames(TableMetadata metadata) {
        List<String> names = new ArrayList<>();
        metadata.columns().forEach(c -> names.add(c.name.toString()));
        return names;
    }
}
