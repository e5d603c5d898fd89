package io.erasure.deletionlog.client;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.DeterministicId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dataset spec an origin (a run, or a forward-deletion request) deleted {@code dataset} under, as the deletion
 * service executed it: kept with the log, so that a recovery or a reapplication acts under the spec the rows were
 * deleted with and never under one a caller sends (which could point a restore at another table, or add copies).
 *
 * <p>{@code digest} is SHA-256 over the spec's canonical form ({@link #canonical}: its JSON with every object's fields
 * sorted): two specs are the same exactly when their digests are. {@code copyOf}: the source dataset when
 * {@code dataset} is one of its copies' views (the spec is then the view), else null.
 */
public record FrozenSpec(
        String originId, String dataset, String digest, DatasetSpec spec, String copyOf, Instant frozenAt) {

    public FrozenSpec {
        Names.opaqueId("originId", originId);
        Names.datasetName("dataset", dataset);
        Require.nonBlank("digest", digest);
        Require.nonNull("spec", spec);
        if (!spec.name().equals(dataset)) {
            throw new IllegalArgumentException(
                    "a frozen spec of dataset '" + dataset + "' must be named so, got '" + spec.name() + "'");
        }
        Require.nonNull("frozenAt", frozenAt);
    }

    /** The frozen spec of {@code spec}, as deleted by {@code originId} at {@code frozenAt}. */
    public static FrozenSpec of(String originId, DatasetSpec spec, String copyOf, Instant frozenAt, JsonMapper json) {
        return new FrozenSpec(originId, spec.name(), digest(spec, json), spec, copyOf, frozenAt);
    }

    /** {@code spec-v1:} + SHA-256 hex of the spec's canonical form. */
    public static String digest(DatasetSpec spec, JsonMapper json) {
        return "spec-v1:" + DeterministicId.sha256Hex("dataset-spec-v1", canonical(spec, json));
    }

    /** The spec's JSON with every object's fields sorted by name, so that field order never changes a digest. */
    public static String canonical(DatasetSpec spec, JsonMapper json) {
        return json.writeValueAsString(sorted(json.valueToTree(spec), json));
    }

    /**
     * What {@code other} changes against this frozen spec, one entry per top-level field that differs, e.g.
     * {@code table: 'other_table' (frozen: 'users')}; empty when they are the same spec.
     */
    public List<String> differencesFrom(DatasetSpec other, JsonMapper json) {
        JsonNode frozen = sorted(json.valueToTree(spec), json);
        JsonNode asked = sorted(json.valueToTree(other), json);
        TreeSet<String> fields = new TreeSet<>();
        frozen.propertyNames().forEach(fields::add);
        asked.propertyNames().forEach(fields::add);
        List<String> differences = new ArrayList<>();
        for (String field : fields) {
            JsonNode was = frozen.get(field);
            JsonNode is = asked.get(field);
            if (!Objects.equals(was, is)) {
                differences.add(field + ": " + shown(is, json) + " (frozen: " + shown(was, json) + ")");
            }
        }
        return differences;
    }

    private static String shown(JsonNode node, JsonMapper json) {
        String text = node == null || node.isNull() ? "none" : json.writeValueAsString(node);
        return text.length() <= 160 ? text : text.substring(0, 157) + "...";
    }

    private static JsonNode sorted(JsonNode node, JsonMapper json) {
        if (node.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            node.properties().forEach(entry -> fields.put(entry.getKey(), sorted(entry.getValue(), json)));
            ObjectNode copy = json.createObjectNode();
            fields.forEach(copy::set);
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = json.createArrayNode();
            for (JsonNode element : node) {
                copy.add(sorted(element, json));
            }
            return copy;
        }
        return node;
    }
}
