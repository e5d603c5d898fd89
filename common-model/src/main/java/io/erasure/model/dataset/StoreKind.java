package io.erasure.model.dataset;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.erasure.model.check.Require;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The kinds of store a dataset or a copy can live in; each kind has one adapter. */
public enum StoreKind {
    CASSANDRA(true),
    POSTGRES(true),
    REDIS(false),
    S3_OBJECT(false),
    HTTP_CALLBACK(false),
    /** An OpenSearch or Elasticsearch index: documents by id or by a term query ({@link CopyTarget.SearchIndex}). */
    OPENSEARCH(false);

    private final boolean tabular;

    StoreKind(boolean tabular) {
        this.tabular = tabular;
    }

    /** True for stores addressed by keyspace/schema, table and key columns. */
    public boolean tabular() {
        return tabular;
    }

    /**
     * Parses a kind case-insensitively, accepting {@code -} for {@code _} ({@code s3-object}).
     * An unknown value fails with the list of known kinds.
     */
    @JsonCreator
    public static StoreKind parse(String value) {
        if (value != null) {
            String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            for (StoreKind kind : values()) {
                if (kind.name().equals(normalized)) {
                    return kind;
                }
            }
        }
        throw new IllegalArgumentException("store kind " + Require.echo(value) + " is unknown; use one of " + known());
    }

    public static String known() {
        return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
    }
}
