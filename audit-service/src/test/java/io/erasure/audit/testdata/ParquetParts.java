package io.erasure.audit.testdata;

import io.erasure.backup.format.BackupRow;
import io.erasure.backup.format.ColumnTypes;
import io.erasure.backup.format.Sha256;
import io.erasure.model.backup.BackupSchema;
import io.erasure.model.backup.ColumnSchema;
import io.erasure.model.backup.ManifestPart;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Writes rows as a Parquet part the way a team's export would: integers as INT64, decimals as DECIMAL,
 * timestamps as TIMESTAMP(MICROS, UTC), UUIDs as UUID, the rest as strings; small row groups, so a few
 * thousand rows span several. Write times are not kept (Parquet exports have none).
 */
public final class ParquetParts {

    /** Row groups of about this many bytes: small, so joins cross row-group boundaries in tests. */
    public static final long ROW_GROUP_BYTES = 32 * 1024;

    private ParquetParts() {}

    /** The Parquet schema a team's export of {@code schema} would have. */
    public static MessageType messageType(BackupSchema schema, List<BackupRow> rows) {
        List<Type> fields = new ArrayList<>();
        for (ColumnSchema column : schema.columns()) {
            fields.add(field(column, rows));
        }
        return new MessageType("row", fields);
    }

    public static GeneratedData.Part part(int index, BackupSchema schema, List<BackupRow> rows) throws IOException {
        return part(S3Layout.partName(index, BackupFormat.PARQUET), messageType(schema, rows), schema, rows);
    }

    /** Writes {@code rows} under {@code type}, each column's value as {@code schema} lists it. */
    public static GeneratedData.Part part(String name, MessageType type, BackupSchema schema, List<BackupRow> rows)
            throws IOException {
        return write(name, type, rows.size(), (group, i) -> {
            for (ColumnSchema column : schema.columns()) {
                Object value = rows.get(i).values().get(column.name());
                if (value != null) {
                    append(group, type.getType(column.name()), value);
                }
            }
        });
    }

    /** Fills one row of a part. */
    public interface Row {
        void fill(Group group, int index);
    }

    /** Writes {@code rows} rows under {@code type}, snappy, in small row groups and pages. */
    public static GeneratedData.Part write(String name, MessageType type, int rows, Row row) throws IOException {
        return write(name, type, rows, row, settings -> {});
    }

    /** As {@link #write(String, MessageType, int, Row)}, with the writer's settings changed by {@code settings}. */
    public static GeneratedData.Part write(
            String name, MessageType type, int rows, Row row, Consumer<ExampleParquetWriter.Builder> settings)
            throws IOException {
        Path file = Files.createTempFile("parquet-part-", ".parquet");
        Files.delete(file);
        try {
            SimpleGroupFactory groups = new SimpleGroupFactory(type);
            ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(file))
                    .withConf(new PlainParquetConfiguration())
                    .withType(type)
                    .withCompressionCodec(CompressionCodecName.SNAPPY)
                    .withRowGroupSize(ROW_GROUP_BYTES)
                    .withPageSize(4 * 1024);
            settings.accept(builder);
            try (ParquetWriter<Group> writer = builder.build()) {
                for (int i = 0; i < rows; i++) {
                    Group group = groups.newGroup();
                    row.fill(group, i);
                    writer.write(group);
                }
            }
            byte[] bytes = Files.readAllBytes(file);
            return new GeneratedData.Part(bytes, new ManifestPart(name, rows, Sha256.hex(bytes)));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static Type field(ColumnSchema column, List<BackupRow> rows) {
        String type = column.type();
        String name = column.name();
        if (ColumnTypes.isIntegral(type)) {
            return Types.optional(PrimitiveTypeName.INT64).named(name);
        }
        if (ColumnTypes.isDecimal(type)) {
            int scale = rows.stream()
                    .map(r -> r.values().get(name))
                    .filter(BigDecimal.class::isInstance)
                    .mapToInt(v -> ((BigDecimal) v).scale())
                    .max()
                    .orElse(0);
            return Types.optional(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.decimalType(scale, 38))
                    .named(name);
        }
        if (ColumnTypes.isBoolean(type)) {
            return Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
        }
        if (type.equals("timestamp")) {
            return Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                    .named(name);
        }
        if (type.equals("uuid")) {
            return Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                    .length(16)
                    .as(LogicalTypeAnnotation.uuidType())
                    .named(name);
        }
        return Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(name);
    }

    private static void append(Group group, Type field, Object value) {
        String name = field.getName();
        LogicalTypeAnnotation logical = field.getLogicalTypeAnnotation();
        switch (field.asPrimitiveType().getPrimitiveTypeName()) {
            case INT64 -> {
                if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
                    Instant at = value instanceof Instant i ? i : Instant.parse(value.toString());
                    group.append(name, ChronoUnit.MICROS.between(Instant.EPOCH, at));
                } else {
                    group.append(name, ((Number) value).longValue());
                }
            }
            case INT32 -> group.append(name, ((Number) value).intValue());
            case BOOLEAN -> group.append(name, (Boolean) value);
            case DOUBLE -> group.append(name, ((Number) value).doubleValue());
            case FLOAT -> group.append(name, ((Number) value).floatValue());
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                    BigDecimal scaled = ((BigDecimal) value).setScale(decimal.getScale());
                    group.append(
                            name,
                            Binary.fromConstantByteArray(scaled.unscaledValue().toByteArray()));
                } else if (logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
                    UUID uuid = value instanceof UUID u ? u : UUID.fromString(value.toString());
                    ByteBuffer bytes = ByteBuffer.allocate(16);
                    bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
                    group.append(name, Binary.fromConstantByteArray(bytes.array()));
                } else {
                    group.append(name, value.toString());
                }
            }
            default -> throw new IllegalArgumentException("no test writer for " + field);
        }
    }
}
