package io.erasure.store.opensearch;

import io.erasure.model.check.Require;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.store.spi.StoreException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds a batch's documents with what a conditional delete needs: id, sequence number and primary term, custom
 * routing, and the source. By id: one {@code _mget}, and a search of every shard for ids it did not find; by term:
 * one {@code _search} on the field with every key's value, grouped back by key.
 */
final class Documents {

    /**
     * One document as read: its source keeps its field order and exact numbers; {@code routing} is its custom
     * routing, null when it has none (routed by its id).
     */
    record Doc(
            String index,
            String id,
            long seqNo,
            long primaryTerm,
            @Nullable String routing,
            Map<String, Object> source) {

        /**
         * The write time the dataset's conditional column gives, in µs, or null without one. A document without
         * the field (or with a null) has no provable write time: it is treated as written after any cut-off.
         */
        @Nullable
        Long writeMicros(DatasetSpec spec) {
            if (!(spec.conditionalColumn() instanceof ConditionalColumn.Named named)) {
                return null;
            }
            return micros(source.get(named.name()));
        }

        /**
         * True when the document may have been written after the cut-off: its conditional column is later, or it
         * has none that can be read (no provable write time keeps the document). Without a conditional column (a
         * copy, or the owner's registered choice) false: the sequence number alone guards the delete.
         */
        boolean writtenAfter(DatasetSpec spec, long cutoffMicros) {
            if (!(spec.conditionalColumn() instanceof ConditionalColumn.Named)) {
                return false;
            }
            Long micros = writeMicros(spec);
            return micros == null || micros > cutoffMicros;
        }
    }

    private final RestCalls rest;
    private final OpenSearchSettings settings;

    Documents(RestCalls rest, OpenSearchSettings settings) {
        this.rest = rest;
        this.settings = settings;
    }

    /** Per key, in order, its documents (none when absent). */
    List<List<Doc>> find(DatasetSpec spec, List<Map<String, Object>> keys) {
        CopyTarget.SearchIndex target = target(spec);
        return target.byId() ? byId(target, keys) : byTerm(target, keys);
    }

    static CopyTarget.SearchIndex target(DatasetSpec spec) {
        if (!(spec.target() instanceof CopyTarget.SearchIndex target)) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' has no searchIndex target");
        }
        return target;
    }

    /**
     * One {@code _mget}, which looks in the shard the id routes to; ids it did not find are searched for in every
     * shard, since a document indexed with a custom routing lies elsewhere and would read as absent.
     */
    private List<List<Doc>> byId(CopyTarget.SearchIndex target, List<Map<String, Object>> keys) {
        List<String> ids;
        try {
            ids = keys.stream().map(target::documentId).toList();
        } catch (IllegalArgumentException e) {
            throw new StoreException.Fatal("index " + target.index() + ": " + e.getMessage() + "; nothing of this batch"
                    + " was read or deleted");
        }
        if (new HashSet<>(ids).size() != ids.size()) {
            // distinct keys rendering one id (a number as 1 and as 1.0): deleting for one would delete the other's
            throw new StoreException.Fatal("two keys of the batch have one document id in " + target.index()
                    + " (template " + target.idTemplate()
                    + "): the template cannot tell their rows apart; nothing was deleted");
        }
        List<List<Doc>> found = mget(target, ids);
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (found.get(i).isEmpty()) {
                missing.add(ids.get(i));
            }
        }
        if (missing.isEmpty()) {
            return found;
        }
        // an id may lie in several shards under custom routings: every document of it belongs to the row
        int limit = settings.maxDocumentsPerBatch();
        JsonNode hits = search(target, Map.of("ids", Map.of("values", missing)), limit + 1);
        if (hits.size() > limit) {
            throw new StoreException.Fatal("the batch's " + missing.size() + " ids not found in their own shard match"
                    + " more than " + limit + " documents of " + target.index() + " across shards"
                    + " (max-documents-per-batch); nothing was deleted");
        }
        Map<String, List<Doc>> routed = new LinkedHashMap<>();
        for (JsonNode hit : hits) {
            routed.computeIfAbsent(hit.path("_id").asString(), id -> new ArrayList<>())
                    .add(doc(hit));
        }
        List<List<Doc>> all = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            all.add(found.get(i).isEmpty() ? List.copyOf(routed.getOrDefault(ids.get(i), List.of())) : found.get(i));
        }
        return all;
    }

    private List<List<Doc>> mget(CopyTarget.SearchIndex target, List<String> ids) {
        RestCalls.Answer answer = rest.post("/" + RestCalls.encode(target.index()) + "/_mget", Map.of("ids", ids));
        requireIndex(answer, target.index());
        JsonNode docs = answer.body().path("docs");
        List<List<Doc>> found = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            JsonNode doc = docs.path(i);
            if (!doc.path("error").isMissingNode()) {
                String type = doc.path("error").path("type").asString("");
                String message =
                        "reading document " + ids.get(i) + " of " + target.index() + " failed: " + doc.path("error");
                // a shard not ready or a node away passes; a closed index or a missing routing does not
                if (type.contains("routing_missing") || type.contains("index_closed") || type.contains("not_found")) {
                    throw new StoreException.Fatal(message);
                }
                throw new StoreException.Retriable(message, null);
            }
            found.add(doc.path("found").asBoolean(false) ? List.of(doc(doc)) : List.of());
        }
        return found;
    }

    private List<List<Doc>> byTerm(CopyTarget.SearchIndex target, List<Map<String, Object>> keys) {
        String column = Objects.requireNonNull(target.column());
        String field = Objects.requireNonNull(target.termField());
        List<Object> values = keys.stream().map(key -> key.get(column)).toList();
        int limit = settings.maxDocumentsPerBatch();
        JsonNode hits = search(target, Map.of("terms", Map.of(field, values)), limit + 1);
        if (hits.size() > limit) {
            throw new StoreException.Fatal("the batch's " + keys.size() + " keys match more than " + limit
                    + " documents of " + target.index() + " (max-documents-per-batch): raise the setting or make"
                    + " batches smaller; nothing was deleted");
        }
        Map<String, List<Doc>> byValue = new LinkedHashMap<>();
        for (JsonNode hit : hits) {
            Doc doc = doc(hit);
            Object value = path(doc.source(), field);
            if (value instanceof List<?> several) {
                // a document of several rows (a conversation of two members): deleting it for one of them would
                // delete the others' data, and leaving it unsaid would report the row gone while it is not
                throw new StoreException.Fatal("document " + doc.id() + " of index " + doc.index() + " holds several"
                        + " values of " + field + " " + several + ": it belongs to more than one row, so it is not"
                        + " deleted for one of them; address such documents otherwise (an id per row), or remove the"
                        + " row from the other values first. Nothing of this batch was deleted");
            }
            if (values.stream().noneMatch(v -> normal(v).equals(normal(value)))) {
                // matched by the query but equal to no key as read back (a normalizer, a number stored as text, an
                // array of objects, a dotted field name): which row it belongs to cannot be told, so it is neither
                // deleted nor left to make its row read back as gone
                throw new StoreException.Fatal("document " + doc.id() + " of index " + doc.index() + " matches the"
                        + " term query on " + field + " but holds " + Require.echo(String.valueOf(value))
                        + ", equal to none of the"
                        + " batch's keys: the field is normalised, coerced or not a single value at that path, so"
                        + " its row cannot be told; address the index by document id instead. Nothing of this"
                        + " batch was deleted");
            }
            byValue.computeIfAbsent(normal(value), v -> new ArrayList<>()).add(doc);
        }
        List<List<Doc>> found = new ArrayList<>();
        for (Object value : values) {
            found.add(List.copyOf(byValue.getOrDefault(normal(value), List.of())));
        }
        return found;
    }

    /**
     * The hits of {@code query} in every shard of the target, refreshed first (so a document indexed a moment ago is
     * found), with their sequence numbers; a shard that failed or timed out fails the search rather than make its
     * documents look absent.
     */
    private JsonNode search(CopyTarget.SearchIndex target, Map<String, Object> query, int size) {
        String index = RestCalls.encode(target.index());
        requireIndex(rest.post("/" + index + "/_refresh", Map.of()), target.index());
        Map<String, Object> search = new LinkedHashMap<>();
        search.put("query", query);
        search.put("size", size);
        search.put("seq_no_primary_term", true);
        RestCalls.Answer answer = rest.post("/" + index + "/_search?allow_partial_search_results=false", search);
        requireIndex(answer, target.index());
        JsonNode shards = answer.body().path("_shards");
        if (answer.body().path("timed_out").asBoolean(false)
                || shards.path("failed").asInt(0) > 0) {
            throw new StoreException.Retriable(
                    "searching " + target.index() + " reached only "
                            + shards.path("successful").asInt() + " of "
                            + shards.path("total").asInt() + " shards",
                    null);
        }
        return answer.body().path("hits").path("hits");
    }

    private static void requireIndex(RestCalls.Answer answer, String index) {
        if (answer.status() == 404) {
            throw new StoreException.Fatal("index " + index + " does not exist ("
                    + answer.body().path("error").path("reason").asString("")
                    + "); create it or correct the dataset's searchIndex.index");
        }
        if (answer.status() == 400) {
            // a malformed request will be malformed again: a key of the wrong type for the field, a closed index
            throw new StoreException.Fatal("index " + index + " refused the request: "
                    + answer.body()
                            .path("error")
                            .path("reason")
                            .asString(answer.body().toString()));
        }
        if (!answer.ok()) {
            throw new StoreException.Retriable(
                    "index " + index + " answered " + answer.status() + ": " + answer.body(), null);
        }
    }

    @SuppressWarnings("unchecked")
    private static Doc doc(JsonNode doc) {
        JsonNode source = doc.path("_source");
        if (!(source instanceof ObjectNode)) {
            // an index that keeps no _source (one added to an alias after the dataset was checked): what is not read
            // cannot be logged, so it is not deleted either
            throw new StoreException.Fatal("document " + doc.path("_id").asString() + " of index "
                    + doc.path("_index").asString() + " comes without its _source: it can be neither logged before"
                    + " its delete nor restored after; nothing of this batch was deleted");
        }
        Map<String, Object> fields = RestCalls.JSON.convertValue(source, LinkedHashMap.class);
        return new Doc(
                doc.path("_index").asString(),
                doc.path("_id").asString(),
                doc.path("_seq_no").asLong(),
                doc.path("_primary_term").asLong(),
                doc.path("_routing").isString() ? doc.path("_routing").asString() : null,
                fields);
    }

    /** A dotted path's value in a source ({@code actor.member_id}), or null. */
    @Nullable
    static Object path(Map<String, Object> source, String dotted) {
        Object at = source;
        for (String part : dotted.split("\\.")) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = map.get(part);
        }
        return at;
    }

    /** A key value and a source value compare equal when they are the same number or the same text. */
    static String normal(@Nullable Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal.stripTrailingZeros().toPlainString();
        }
        if (value instanceof Number number) {
            return new BigDecimal(number instanceof BigInteger big ? big.toString() : number.toString())
                    .stripTrailingZeros()
                    .toPlainString();
        }
        return String.valueOf(value);
    }

    /** A timestamp field's value in µs: epoch milliseconds as a number, or an ISO-8601 instant with its fraction. */
    @Nullable
    static Long micros(@Nullable Object value) {
        if (value instanceof Number number) {
            return Math.multiplyExact(number.longValue(), 1_000L);
        }
        if (value instanceof String text) {
            try {
                Instant at = Instant.parse(text);
                return ChronoUnit.MICROS.between(Instant.EPOCH, at);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }
}
