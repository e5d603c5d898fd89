package io.erasure.model.check;

import java.util.regex.Pattern;

/**
 * The one place that decides which names are safe: CQL/SQL identifiers that end up in statements,
 * dataset names that end up in topic keys and S3 keys, connection references, and opaque ids.
 *
 * <p>Identifiers are lower-case only, so that the double-quoted form produced by {@link #quoted}
 * names exactly the same object in Cassandra and PostgreSQL as the unquoted one, and no value can
 * carry quotes, spaces or semicolons into a statement.
 */
public final class Names {

    /** Keyspace, schema, table and column names. */
    public static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,47}");
    /** Dataset, identifier-source and copy names. */
    public static final Pattern DATASET_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{1,62}");
    /** A reference to connection settings held by the services, never the settings themselves. */
    public static final Pattern CONNECTION_REF = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
    /** Run, request, task and batch ids: safe in Kafka keys, S3 keys and URLs. */
    public static final Pattern OPAQUE_ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");

    /** The control topic's key for platform-wide signals; no dataset may take this name. */
    public static final String RESERVED_GLOBAL = "global";

    private Names() {}

    public static boolean isIdentifier(String value) {
        return value != null && IDENTIFIER.matcher(value).matches();
    }

    /** Returns {@code value} if it is a safe CQL/SQL identifier, else fails naming {@code field}. */
    public static String identifier(String field, String value) {
        Require.nonNull(field, value);
        if (!isIdentifier(value)) {
            throw new IllegalArgumentException(field + " must be a lower-case identifier matching " + IDENTIFIER
                    + " (a-z, 0-9 and _, starting with a letter or _, at most 48 characters), got "
                    + Require.echo(value)
                    + "; rename the object or register it by its lower-case name");
        }
        return value;
    }

    /** The double-quoted form of a safe identifier, for use in CQL and SQL text. */
    public static String quoted(String identifier) {
        return '"' + identifier("identifier", identifier) + '"';
    }

    /** {@code "namespace"."table"}, both parts checked. */
    public static String quotedQualified(String namespace, String table) {
        return quoted(namespace) + "." + quoted(table);
    }

    public static String datasetName(String field, String value) {
        Require.nonNull(field, value);
        if (!DATASET_NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must match " + DATASET_NAME
                    + " (2-63 characters: a-z, 0-9 and -, not starting with -), got " + Require.echo(value));
        }
        if (RESERVED_GLOBAL.equals(value)) {
            throw new IllegalArgumentException(field + " must not be '" + RESERVED_GLOBAL
                    + "': that name is the key of platform-wide kill switches; choose another name");
        }
        return value;
    }

    public static String connectionRef(String field, String value) {
        Require.nonNull(field, value);
        if (!CONNECTION_REF.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must be the name of a connection configured in the services"
                    + " (matching " + CONNECTION_REF + ", e.g. 'cassandra-main'), not a URL or credentials; got "
                    + Require.echo(value));
        }
        return value;
    }

    public static String opaqueId(String field, String value) {
        Require.nonNull(field, value);
        if (!OPAQUE_ID.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must match " + OPAQUE_ID
                    + " (lower-case letters, digits, '.', '_' and '-'), got " + Require.echo(value));
        }
        return value;
    }
}
