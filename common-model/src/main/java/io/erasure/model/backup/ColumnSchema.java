package io.erasure.model.backup;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/** A backed-up column and its type as the store names it ({@code text}, {@code bigint}, {@code timestamp}...). */
public record ColumnSchema(String name, String type) {

    public ColumnSchema {
        Names.identifier("schema.columns.name", name);
        Require.nonBlank("schema.columns.type", type);
    }
}
