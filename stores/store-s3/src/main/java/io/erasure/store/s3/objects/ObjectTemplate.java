package io.erasure.store.s3.objects;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A dataset's key template, checked against the operators' allow-list of key prefixes: it turns a row's key into
 * the object key (plain template) or the key prefix (template ending in '/') that holds the row.
 *
 * <p>Placeholder values are rendered as in JSON ({@code 42}, never {@code 42.0}) and must be non-empty and free of
 * '/': a value with a '/' could make one key's prefix lie inside another's ({@code exports/{id}/} with ids
 * {@code 1} and {@code 1/2}), so deleting one row would delete objects of another.
 */
public final class ObjectTemplate {

    private final CopyTarget.KeyTemplate template;
    private final String literalPrefix;

    private ObjectTemplate(CopyTarget.KeyTemplate template) {
        this.template = template;
        String text = template.template();
        this.literalPrefix = text.substring(0, text.indexOf('{'));
    }

    /**
     * The template of {@code spec}, refused (naming the template and the fix) unless it is a key template whose
     * literal prefix starts with one of {@code allowedPrefixes} (any prefix when that list is empty).
     */
    public static ObjectTemplate of(DatasetSpec spec, List<String> allowedPrefixes, String allowListSetting) {
        if (!(spec.target() instanceof CopyTarget.KeyTemplate keyTemplate)) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' has no key template; an S3_OBJECT dataset is"
                    + " addressed by a target such as {\"type\": \"keyTemplate\", \"template\":"
                    + " \"exports/{customer_id}.json\"}");
        }
        ObjectTemplate template = new ObjectTemplate(keyTemplate);
        if (!allowedPrefixes.isEmpty() && allowedPrefixes.stream().noneMatch(template.literalPrefix::startsWith)) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' key template '" + keyTemplate.template()
                    + "' addresses keys outside the prefixes this connection allows " + allowedPrefixes
                    + ": register the template under one of them, or ask the operators to add its prefix to "
                    + allowListSetting);
        }
        return template;
    }

    public String text() {
        return template.template();
    }

    public boolean isPrefix() {
        return template.isPrefix();
    }

    /** The template's text before its first placeholder: every key it renders starts with it. */
    public String literalPrefix() {
        return literalPrefix;
    }

    /** Where the row with {@code key} lives. */
    public RowTarget render(Map<String, ?> key) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String column : template.placeholders()) {
            values.put(column, placeholderValue(column, key.get(column)));
        }
        return new RowTarget(template.render(values), template.isPrefix());
    }

    private String placeholderValue(String column, Object value) {
        String text;
        if (value == null) {
            throw new IllegalArgumentException(
                    "key template '" + text() + "' needs column '" + column + "' but the key has no value for it");
        } else if (value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof BigInteger) {
            text = value.toString();
        } else if (value instanceof Number number) {
            // as JSON readers give it back: 42.0 and 42 address the same object
            text = new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
        } else if (value instanceof CharSequence || value instanceof Boolean || value instanceof UUID) {
            text = value.toString();
        } else {
            throw new IllegalArgumentException("key column '" + column + "' of key template '" + text()
                    + "' must be a string, number, boolean or UUID, got "
                    + value.getClass().getSimpleName());
        }
        if (text.isEmpty() || text.indexOf('/') >= 0) {
            throw new IllegalArgumentException("key column '" + column + "' value '" + text
                    + "' cannot fill key template '"
                    + text() + "': a value must be non-empty and contain no '/', or it would address the objects of"
                    + " another key");
        }
        return text;
    }

    /**
     * One row's place in the bucket: an object key, or a prefix (ending in '/') under which every object belongs
     * to the row.
     */
    public record RowTarget(String key, boolean prefix) {

        /** True if the object {@code objectKey} belongs to this row. */
        public boolean owns(String objectKey) {
            return prefix ? objectKey.startsWith(key) : objectKey.equals(key);
        }
    }
}
