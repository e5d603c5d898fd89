package io.erasure.model.dataset;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a row of the source dataset is found in a copy: a key template for key-value and object
 * stores, or a table plus a column mapping for tabular stores.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = CopyTarget.KeyTemplate.class, name = "keyTemplate"),
        @JsonSubTypes.Type(value = CopyTarget.TableMapping.class, name = "table")
})
public sealed interface CopyTarget permits CopyTarget.KeyTemplate, CopyTarget.TableMapping {

    /**
     * A key such as {@code profile:{customer_id}}; each {@code {column}} is replaced by that
     * column's value in the source row. At least one placeholder is required, otherwise every row
     * would map to the same key.
     */
    record KeyTemplate(String template) implements CopyTarget {

        private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

        public KeyTemplate {
            Require.nonBlank("copy.keyTemplate", template);
            String literal = PLACEHOLDER.matcher(template).replaceAll("");
            if (literal.indexOf('{') >= 0 || literal.indexOf('}') >= 0) {
                throw new IllegalArgumentException("copy.keyTemplate has an unbalanced '{' or '}': " + Require.echo(template));
            }
            if (placeholdersOf(template).isEmpty()) {
                throw new IllegalArgumentException("copy.keyTemplate must contain at least one {column} placeholder,"
                        + " e.g. 'profile:{customer_id}', got " + Require.echo(template));
            }
        }

        /** The column names used by the template, in order of appearance. */
        public List<String> placeholders() {
            return placeholdersOf(template);
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

        private static List<String> placeholdersOf(String template) {
            List<String> columns = new ArrayList<>();
            Matcher m = PLACEHOLDER.matcher(template);
            while (m.find()) {
                columns.add(Names.identifier("copy.keyTemplate placeholder", m.group(1)));
            }
            return Collections.unmodifiableList(columns);
        }
    }

    /** A table of a copy store; {@code columns} maps source columns to the copy's columns. */
    record TableMapping(String namespace, String table, Map<String, String> columns) implements CopyTarget {
        public TableMapping {
            Names.identifier("copy.namespace", namespace);
            Names.identifier("copy.table", table);
            columns = Require.mapOf("copy.columns", columns);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("copy.columns must map at least one source column to a copy column,"
                        + " e.g. {\"customer_id\": \"customer_id\"}");
            }
            columns.forEach((source, target) -> {
                Names.identifier("copy.columns source column", source);
                Names.identifier("copy.columns target column", target);
            });
        }
    }
}
