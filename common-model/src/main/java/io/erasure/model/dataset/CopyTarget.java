package io.erasure.model.dataset;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How a row of the source dataset is found in a copy: a key template for key-value and object
 * stores, or a table plus a column mapping for tabular stores.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = CopyTarget.KeyTemplate.class, name = "keyTemplate"),
    @JsonSubTypes.Type(value = CopyTarget.TableMapping.class, name = "table"),
    @JsonSubTypes.Type(value = CopyTarget.HttpCallback.class, name = "httpCallback"),
    @JsonSubTypes.Type(value = CopyTarget.SearchIndex.class, name = "searchIndex")
})
public sealed interface CopyTarget
        permits CopyTarget.KeyTemplate, CopyTarget.TableMapping, CopyTarget.HttpCallback, CopyTarget.SearchIndex {

    /**
     * The source columns a copy's key is made of, in order: a template's placeholders, a table
     * mapping's mapped source columns, or a callback's key columns.
     */
    List<String> sourceColumns();

    /**
     * Checks that {@code target} is the kind of target a store of {@code kind} is addressed by:
     * tabular stores by a table mapping, Redis and S3 objects by a key template, HTTP callbacks by a
     * callback. Fails with the fix otherwise.
     */
    static void requireFits(String owner, StoreKind kind, @Nullable CopyTarget target) {
        Class<? extends CopyTarget> expected = kind.tabular()
                ? TableMapping.class
                : kind == StoreKind.HTTP_CALLBACK
                        ? HttpCallback.class
                        : kind == StoreKind.OPENSEARCH ? SearchIndex.class : KeyTemplate.class;
        if (!expected.isInstance(target)) {
            String example = kind.tabular()
                    ? "a table mapping (namespace, table, columns)"
                    : kind == StoreKind.HTTP_CALLBACK
                            ? "an httpCallback (url, method, headers, payloadTemplate, keyColumns)"
                            : kind == StoreKind.OPENSEARCH
                                    ? "a searchIndex (index, and idTemplate such as 'member-{member_id}' or termField)"
                                    : "a key template such as 'profile:{customer_id}'";
            throw new IllegalArgumentException(owner + " is in " + kind + ": give its target as " + example + ", not "
                    + (target == null ? "nothing" : target.getClass().getSimpleName()));
        }
    }

    /**
     * A key such as {@code profile:{customer_id}}; each {@code {column}} is replaced by that
     * column's value in the source row. At least one placeholder is required, otherwise every row
     * would map to the same key.
     *
     * <p>Its JSON carries {@code prefix} ({@link #isPrefix()}) for readers; a spec sent back as it was read (the
     * dashboard sends a dataset's spec to the recovery service) may carry it too, and it is ignored, not refused.
     */
    @JsonIgnoreProperties(value = "prefix", allowGetters = true)
    record KeyTemplate(String template) implements CopyTarget {

        private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

        public KeyTemplate {
            Require.nonBlank("copy.keyTemplate", template);
            String literal = PLACEHOLDER.matcher(template).replaceAll("");
            if (literal.indexOf('{') >= 0 || literal.indexOf('}') >= 0) {
                throw new IllegalArgumentException(
                        "copy.keyTemplate has an unbalanced '{' or '}': " + Require.echo(template));
            }
            List<String> placeholders = placeholdersOf(template);
            Require.atMost("copy.keyTemplate placeholders", placeholders.size(), KeyColumns.MAX_COLUMNS);
            if (placeholders.isEmpty()) {
                throw new IllegalArgumentException("copy.keyTemplate must contain at least one {column} placeholder,"
                        + " e.g. 'profile:{customer_id}', got " + Require.echo(template));
            }
        }

        /** The column names used by the template, in order of appearance. */
        public List<String> placeholders() {
            return placeholdersOf(template);
        }

        @Override
        public List<String> sourceColumns() {
            return placeholders().stream().distinct().toList();
        }

        /** True if the template names a prefix (ends with '/'): every object under it belongs to the row. */
        public boolean isPrefix() {
            return template.endsWith("/");
        }

        /** The copy's key for a source row; fails if the row lacks a placeholder column. */
        public String render(Map<String, ?> row) {
            Matcher m = PLACEHOLDER.matcher(template);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                Object value = row.get(m.group(1));
                if (value == null) {
                    throw new IllegalArgumentException("copy.keyTemplate " + Require.echo(template) + " needs column '"
                            + m.group(1) + "' but the row has no value for it");
                }
                m.appendReplacement(out, Matcher.quoteReplacement(value.toString()));
            }
            m.appendTail(out);
            return out.toString();
        }

        /**
         * Placeholders with no literal text between them ({@code {org}{user}}): the rendered text cannot tell where
         * one value ends, so two rows may render the same.
         */
        public boolean hasAdjacentPlaceholders() {
            return template.contains("}{");
        }

        /**
         * {@link #render} that refuses a row another row could render the same: a value (before the last
         * placeholder) that holds the first character of the literal text after it ({@code {org}-{user}} with an
         * {@code org} of {@code a-b}: {@code a-b-c} is also org {@code a}, user {@code b-c}). Values without it read
         * back one way only: each ends where its literal begins, and the last runs to the literal suffix.
         */
        public String renderUnambiguous(Map<String, ?> row) {
            if (hasAdjacentPlaceholders()) {
                throw new IllegalArgumentException("template " + Require.echo(template) + " has placeholders with"
                        + " nothing between them: two rows could render the same text");
            }
            Matcher m = PLACEHOLDER.matcher(template);
            int left = placeholders().size();
            while (m.find()) {
                left--;
                Object value = row.get(m.group(1));
                if (left == 0 || value == null) {
                    continue;
                }
                int next = template.indexOf('{', m.end());
                String literal = template.substring(m.end(), next < 0 ? template.length() : next);
                if (value.toString().indexOf(literal.charAt(0)) >= 0) {
                    throw new IllegalArgumentException("template " + Require.echo(template) + ": the value "
                            + Require.echo(value.toString()) + " of column '" + m.group(1) + "' holds '"
                            + literal.charAt(0) + "', which ends it in the template, so another row could render the"
                            + " same text; use a separator its values never hold");
                }
            }
            return render(row);
        }

        private static List<String> placeholdersOf(String template) {
            List<String> columns = new ArrayList<>();
            Matcher m = PLACEHOLDER.matcher(template);
            while (m.find()) {
                columns.add(Names.identifier("copy.keyTemplate placeholder", m.group(1)));
            }
            return Collections.unmodifiableList(columns);
        }
    }

    /**
     * A table of a copy store; {@code columns} maps source columns to the copy's columns, at most
     * {@value #MAX_COLUMNS} of them.
     */
    record TableMapping(String namespace, String table, Map<String, String> columns) implements CopyTarget {

        /** Room for every key column ({@link KeyColumns#MAX_COLUMNS}) and the identifier, twice over. */
        public static final int MAX_COLUMNS = 64;

        public TableMapping {
            Names.identifier("copy.namespace", namespace);
            Names.identifier("copy.table", table);
            columns = Require.mapOf("copy.columns", columns, MAX_COLUMNS);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("copy.columns must map at least one source column to a copy column,"
                        + " e.g. {\"customer_id\": \"customer_id\"}");
            }
            columns.forEach((source, target) -> {
                Names.identifier("copy.columns source column", source);
                Names.identifier("copy.columns target column", target);
            });
        }

        @Override
        public List<String> sourceColumns() {
            return List.copyOf(columns.keySet());
        }
    }

    /**
     * A store the platform does not know, reached by calling the owner's endpoint once per batch.
     * {@code payloadTemplate} is the request body with the placeholders {@code {dataset}},
     * {@code {batchId}}, {@code {cutoffMicros}} and {@code {keys}} (a JSON array of key objects made of
     * {@code keyColumns}). Header values of the form {@code secret:NAME} are secret references resolved
     * by the deletion service from its configuration, never stored in the spec. {@code checkUrl}
     * (optional) answers whether the data of the given keys is gone (verify mode).
     *
     * <p>Which hosts may be called is decided by operators (an allow-list in the connection settings),
     * not here; here the URL is only checked to be an absolute http(s) URL.
     */
    /**
     * An OpenSearch or Elasticsearch index (or an alias of one index) and how a row's documents are found in it: by
     * id, a template of key columns ({@code member-{member_id}}), or by a term query on a field holding the row's
     * value ({@code termField}, from the source column {@code column}, by default the field's own name) for indexes
     * keyed otherwise, where a row may have several documents.
     *
     * @param index      the index or alias: lower-case letters, digits, '.', '_' and '-', not starting with a
     *                   symbol; never a pattern or a list, so one target never reaches two indexes
     * @param idTemplate how a row's document id is made of its columns; or null with {@code termField}
     * @param termField  the document field a term query matches the row's value on; or null with {@code idTemplate}
     * @param column     with {@code termField}: the source column whose value is matched (default: {@code termField},
     *                   which must then be a column name)
     */
    record SearchIndex(
            String index,
            @Nullable String idTemplate,
            @Nullable String termField,
            @Nullable String column) implements CopyTarget {

        public static final Pattern INDEX = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");
        public static final Pattern FIELD = Pattern.compile("[a-z_][a-z0-9_]{0,47}(\\.[a-z_][a-z0-9_]{0,47}){0,7}");

        public SearchIndex {
            Require.nonNull("copy.searchIndex.index", index);
            if (!INDEX.matcher(index).matches()) {
                throw new IllegalArgumentException("copy.searchIndex.index must be one index or alias name matching "
                        + INDEX + " (no wildcards or lists), got " + Require.echo(index));
            }
            if ((idTemplate == null) == (termField == null)) {
                throw new IllegalArgumentException("copy.searchIndex needs exactly one of idTemplate (documents by id,"
                        + " e.g. 'member-{member_id}') and termField (documents by a term query, e.g. 'member_id')");
            }
            if (idTemplate != null) {
                KeyTemplate ids = new KeyTemplate(idTemplate); // the same placeholders and checks as a key template
                if (ids.hasAdjacentPlaceholders()) {
                    throw new IllegalArgumentException("copy.searchIndex.idTemplate " + Require.echo(idTemplate)
                            + " has placeholders with nothing between them: two rows could have one document id;"
                            + " separate them, e.g. '{org}:{user}'");
                }
                if (column != null) {
                    throw new IllegalArgumentException(
                            "copy.searchIndex.column goes with termField; an idTemplate names its columns itself");
                }
            } else {
                if (!FIELD.matcher(termField).matches()) {
                    throw new IllegalArgumentException("copy.searchIndex.termField must be a field name (dots for"
                            + " nested fields) matching " + FIELD + ", got " + Require.echo(termField));
                }
                column = Names.identifier("copy.searchIndex.column", column == null ? termField : column);
            }
        }

        /** Documents found by id (true) or by a term query (false). */
        public boolean byId() {
            return idTemplate != null;
        }

        @Override
        public List<String> sourceColumns() {
            return idTemplate != null
                    ? new KeyTemplate(idTemplate).sourceColumns()
                    : List.of(Objects.requireNonNull(column));
        }

        /**
         * The document id of a row addressed by id; fails for a term-addressed index, a row missing a column, or a row
         * whose id another row could have too ({@link KeyTemplate#renderUnambiguous}).
         */
        public String documentId(Map<String, ?> row) {
            if (idTemplate == null) {
                throw new IllegalStateException("index " + index + " is addressed by term query on " + termField);
            }
            return new KeyTemplate(idTemplate).renderUnambiguous(row);
        }
    }

    record HttpCallback(
            String url,
            String method,
            Map<String, String> headers,
            String payloadTemplate,
            List<String> keyColumns,
            String checkUrl)
            implements CopyTarget {

        /** The most headers a callback sends: a few credentials and routing headers, with room to spare. */
        public static final int MAX_HEADERS = 32;

        private static final Set<String> METHODS = Set.of("POST", "PUT", "DELETE", "PATCH");
        private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9-]{1,64}");

        public HttpCallback {
            requireHttpUrl("copy.httpCallback.url", url);
            method = method == null ? "POST" : method.trim().toUpperCase(Locale.ROOT);
            if (!METHODS.contains(method)) {
                throw new IllegalArgumentException(
                        "copy.httpCallback.method must be one of " + METHODS + ", got " + Require.echo(method));
            }
            headers = headers == null ? Map.of() : Require.mapOf("copy.httpCallback.headers", headers, MAX_HEADERS);
            headers.forEach((name, value) -> {
                if (!HEADER_NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException("copy.httpCallback.headers name " + Require.echo(name)
                            + " must be letters, digits and '-'");
                }
                if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                    throw new IllegalArgumentException("copy.httpCallback.headers '" + name
                            + "' must have a single-line value (use secret:NAME for credentials)");
                }
            });
            Require.nonBlank("copy.httpCallback.payloadTemplate", payloadTemplate);
            if (!payloadTemplate.contains("{keys}")) {
                throw new IllegalArgumentException("copy.httpCallback.payloadTemplate must contain {keys}, where the"
                        + " batch's keys go, e.g. {\"dataset\": \"{dataset}\", \"keys\": {keys}}");
            }
            keyColumns = Require.nonEmptyListOf("copy.httpCallback.keyColumns", keyColumns, KeyColumns.MAX_COLUMNS);
            keyColumns.forEach(column -> Names.identifier("copy.httpCallback.keyColumns", column));
            if (checkUrl != null) {
                requireHttpUrl("copy.httpCallback.checkUrl", checkUrl);
            }
        }

        @Override
        public List<String> sourceColumns() {
            return keyColumns;
        }

        private static void requireHttpUrl(String field, String value) {
            Require.nonBlank(field, value);
            URI uri;
            try {
                uri = new URI(value);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(field + " is not a valid URL: " + Require.echo(value));
            }
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                    || uri.getHost() == null
                    || uri.getUserInfo() != null) {
                throw new IllegalArgumentException(field + " must be an absolute http(s) URL without credentials,"
                        + " e.g. https://owner.example.com/erasure/delete, got " + Require.echo(value));
            }
        }
    }
}
