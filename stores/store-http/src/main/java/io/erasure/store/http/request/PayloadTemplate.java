package io.erasure.store.http.request;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * The owner's payload template filled in for a batch: {@code {keys}} becomes a JSON array of key objects (key
 * columns in their registered order, strings JSON-escaped), {@code {dataset}} and {@code {batchId}} the
 * JSON-escaped text (the template puts them inside quotes), {@code {cutoffMicros}} the batch's cut-off as a
 * number, so the owner can keep rows written after it.
 *
 * <p>Placeholders are replaced in one pass, so a key value that happens to contain {@code {dataset}} is sent as
 * it is, never expanded. A placeholder whose value is not known yet ({@code null}: no batch when rows are read for
 * the log) is left in the text.
 */
public final class PayloadTemplate {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(dataset|batchId|cutoffMicros|keys)}");

    private final String template;
    private final List<String> keyColumns;

    public PayloadTemplate(String template, List<String> keyColumns) {
        this.template = template;
        this.keyColumns = List.copyOf(keyColumns);
    }

    public String render(String dataset, String batchId, Long cutoffMicros, List<Map<String, Object>> keys) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "dataset" -> escaped(dataset);
                case "batchId" -> escaped(batchId);
                case "cutoffMicros" -> cutoffMicros == null ? null : Long.toString(cutoffMicros);
                default -> keysJson(keys);
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The keys as a JSON array of objects with the key columns, in order. */
    public String keysJson(List<Map<String, Object>> keys) {
        return JSON.writeValueAsString(keyObjects(keys));
    }

    /** The keys as maps holding exactly the key columns, in their registered order, for JSON. */
    public List<Map<String, Object>> keyObjects(List<Map<String, Object>> keys) {
        List<Map<String, Object>> objects = new ArrayList<>(keys.size());
        for (Map<String, Object> key : keys) {
            Map<String, Object> ordered = new LinkedHashMap<>();
            keyColumns.forEach(column -> ordered.put(column, key.get(column)));
            objects.add(ordered);
        }
        return objects;
    }

    /** {@code text} JSON-escaped, without the surrounding quotes. */
    private static String escaped(String text) {
        if (text == null) {
            return null;
        }
        String quoted = JSON.writeValueAsString(text);
        return quoted.substring(1, quoted.length() - 1);
    }
}
