package io.erasure.model.dataset;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/**
 * The column that makes a delete conditional on the cut-off (relational stores delete only where
 * {@code updated_at} or {@code version} is at or before it), or an explicit statement that there
 * is none. Always explicit: a dataset spec never leaves this null, so "no concurrent-write guard"
 * is a decision someone wrote down, not an omission. Cassandra datasets use {@link #none()}: their
 * deletes are conditioned by {@code USING TIMESTAMP} instead. A relational dataset may say {@link #none()}
 * too, explicitly: its deletes are then unconditional, and a row updated after the cut-off can be deleted.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ConditionalColumn.None.class, name = "none"),
    @JsonSubTypes.Type(value = ConditionalColumn.Named.class, name = "column")
})
public sealed interface ConditionalColumn permits ConditionalColumn.None, ConditionalColumn.Named {

    enum Kind {
        TIMESTAMP,
        VERSION
    }

    static ConditionalColumn none() {
        return new None();
    }

    static ConditionalColumn timestamp(String column) {
        return new Named(column, Kind.TIMESTAMP);
    }

    static ConditionalColumn version(String column) {
        return new Named(column, Kind.VERSION);
    }

    /** Deletes are not conditioned on a column. */
    record None() implements ConditionalColumn {}

    /** Deletes are conditioned on {@code name} being at or before the cut-off (or the version read). */
    record Named(String name, Kind kind) implements ConditionalColumn {
        public Named {
            Names.identifier("conditionalColumn.name", name);
            Require.nonNull("conditionalColumn.kind (TIMESTAMP or VERSION)", kind);
        }
    }
}
