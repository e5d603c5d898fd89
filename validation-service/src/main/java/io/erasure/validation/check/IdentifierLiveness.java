package io.erasure.validation.check;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.record.ColumnValue;
import io.erasure.store.spi.LiveRow;
import io.erasure.support.stores.StoreAdapterPool;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the live identifier source, with point reads through its store adapter, to tell which
 * identifiers are still deletable now: the "deletable since" column is set and the grace period has
 * passed. The source table must be keyed by its identifier column.
 */
public class IdentifierLiveness {

    /** Cassandra's toJson form of a timestamp: {@code 2026-11-01 00:00:00.000Z}. */
    private static final DateTimeFormatter CQL_TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd()
            .appendOffset("+HHmm", "Z")
            .toFormatter();

    private final StoreAdapterPool stores;

    public IdentifierLiveness(StoreAdapterPool stores) {
        this.stores = stores;
    }

    public enum State {
        DELETABLE,
        NOT_DELETABLE,
        NOT_FOUND
    }

    /**
     * The state of each identifier at {@code now}.
     *
     * @param identifiers identifier values in their JSON form, keyed by their string form
     */
    public Map<String, State> states(IdentifierSource source, Map<String, Object> identifiers, Instant now) {
        DatasetSpec table = asTable(source);
        List<Map<String, Object>> keys = identifiers.values().stream()
                .<Map<String, Object>>map(value -> Map.of(source.identifierColumn(), value))
                .toList();
        Map<String, State> states = new HashMap<>();
        identifiers.keySet().forEach(id -> states.put(id, State.NOT_FOUND));
        for (LiveRow row : stores.checkedAdapter(table).readRows(table, keys)) {
            String id = String.valueOf(row.key().get(source.identifierColumn()));
            Instant since = deletableSince(row, source.deletableSinceColumn());
            states.put(id, source.deletableAt(since, now) ? State.DELETABLE : State.NOT_DELETABLE);
        }
        return states;
    }

    /** The identifier source's table as a dataset spec, so the adapters can read it. */
    static DatasetSpec asTable(IdentifierSource source) {
        return DatasetSpec.builder()
                .name(source.name())
                .storeKind(source.storeKind())
                .connectionRef(source.connectionRef())
                .namespace(source.namespace())
                .table(source.table())
                .keyColumns(KeyColumns.partitionOnly(source.identifierColumn()))
                .identifierColumn(source.identifierColumn())
                .identifierSource(source.name())
                .conditionalColumn(ConditionalColumn.none())
                .backup(source.backup())
                .limits(DeletionLimits.rows(1))
                .ownerTeam("erasure-platform")
                .build();
    }

    static Instant deletableSince(LiveRow row, String column) {
        Object value = row.columns().stream()
                .filter(c -> c.name().equals(column))
                .findFirst()
                .map(ColumnValue::value)
                .orElse(null);
        if (value == null) {
            return null;
        }
        if (value instanceof Number epochMillis) {
            return Instant.ofEpochMilli(epochMillis.longValue());
        }
        String text = value.toString().trim();
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException notIso) {
            try {
                return OffsetDateTime.parse(text, CQL_TIMESTAMP).toInstant();
            } catch (DateTimeParseException notCql) {
                throw new IllegalStateException("identifier source column '" + column + "' holds '" + text
                        + "', which is not a timestamp; it must be a timestamp column (deletable since when)");
            }
        }
    }
}
