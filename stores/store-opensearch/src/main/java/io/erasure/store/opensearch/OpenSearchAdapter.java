package io.erasure.store.opensearch;

import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.record.DeletionRecord;
import io.erasure.store.opensearch.Documents.Doc;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePace;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.LoadSignal;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.PurgeStatus;
import io.erasure.store.spi.PurgeTracking;
import io.erasure.store.spi.RestoreOutcome;
import io.erasure.store.spi.StoreAdapter;
import io.erasure.store.spi.StoreCapabilities;
import io.erasure.store.spi.StoreCapabilities.Capability;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A search index as a dataset or a copy ({@link CopyTarget.SearchIndex}): the documents of a row are found by id or by
 * a term query, and each is deleted only if it is still the version that was read.
 *
 * <ul>
 *   <li><b>Plan</b> reads every document of the batch with its {@code _seq_no} and {@code _primary_term}; a key whose
 *       document was written after the cut-off (by the dataset's TIMESTAMP conditional column, a date field of the
 *       source) is kept whole. A copy has no conditional column: it is deleted after its source row was.</li>
 *   <li><b>Execute</b>, by id, sends one {@code _bulk} of deletes, each with {@code if_seq_no}/{@code if_primary_term}
 *       of the plan, and refreshes: a document re-indexed after the plan (or after the read for the log, which follows
 *       the plan) answers 409 and is kept, so nothing unlogged is deleted. By term, it runs {@code _delete_by_query}
 *       tasks paced by the cluster at the throttle's rate, whose query names each planned document by id and
 *       {@code _seq_no} ({@link DeleteByQuery}): the same guarantee, with the cluster doing the pacing.</li>
 *   <li><b>Restore</b> creates each document again with {@code op_type=create}: one written since is never
 *       overwritten, and is reported as newer data kept.</li>
 *   <li><b>Load</b> is the cluster's own: node CPU, write and search queues and rejections, mean query time.</li>
 * </ul>
 * A row's columns are its document's top-level source fields (exact numbers, field order kept) and {@value #ID}, the
 * document id, which a restore uses and never writes into the source. Thread-safe.
 */
public final class OpenSearchAdapter implements StoreAdapter, PurgeTracking {

    private static final Pattern TIME_VALUE = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /**
     * A row's one column: its documents, each with the index it was read from ({@value #INDEX}: an alias may name
     * several), its id ({@value #ID}), its custom routing if it has one ({@value #ROUTING}) and its source
     * ({@value #SOURCE}) as the index holds it.
     */
    public static final String DOCUMENTS = "documents";

    public static final String INDEX = "_index";
    public static final String ID = "_id";
    public static final String SOURCE = "_source";
    /** A document's custom routing, in its logged entry when it has one. */
    public static final String ROUTING = "_routing";

    private static final Set<String> TERM_TYPES = Set.of("keyword", "long", "integer", "short", "byte", "boolean");
    private static final Set<String> DATE_TYPES = Set.of("date", "date_nanos");
    /**
     * A planned delete: values are the document's index (the concrete one it was found in: an alias may name several)
     * and id, its sequence number and primary term, the position of its key in the batch, and its custom routing
     * ({@code ""} for none).
     */
    private static final String DELETE = "DELETE /?/_doc/? ?if_seq_no=?&if_primary_term=? (key #?) routing=?";

    private final OpenSearchSettings settings;
    private final RestCalls rest;
    private final Documents documents;
    private final ClusterLoad load;
    private final DeleteByQuery deleteByQuery;

    OpenSearchAdapter(OpenSearchSettings settings, RestCalls rest, ClusterLoad load) {
        this.settings = settings;
        this.rest = rest;
        this.documents = new Documents(rest, settings);
        this.load = load;
        this.deleteByQuery = new DeleteByQuery(rest);
    }

    @Override
    public StoreCapabilities capabilities() {
        return StoreCapabilities.of(settings.maxBatch(), Capability.RESTORE, Capability.CUTOFF_CONDITIONED);
    }

    /**
     * Accepts an OPENSEARCH dataset whose index exists (an alias of exactly one index, for deletes by id), within
     * the connection's {@code index-prefixes} (and so is every index behind an alias), whose term field is mapped as
     * an exact type, and whose conditional column, if any, is a TIMESTAMP mapped as a date. Reads only the mapping and
     * aliases; every plan checks again.
     */
    @Override
    public void checkDataset(DatasetSpec spec) {
        if (spec.storeKind() != StoreKind.OPENSEARCH) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' is " + spec.storeKind() + "; connection '"
                    + settings.ref() + "' is OPENSEARCH");
        }
        CopyTarget.SearchIndex target = Documents.target(spec);
        if (!withinPrefixes(target.index())) {
            throw new StoreException.Fatal("index " + target.index() + " of dataset '" + spec.name()
                    + "' is outside connection '" + settings.ref() + "'s index-prefixes " + settings.indexPrefixes());
        }
        if (!spec.keyColumns().primaryKey().equals(target.sourceColumns())) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "' is keyed by "
                    + spec.keyColumns().primaryKey() + " but its searchIndex addresses documents by "
                    + target.sourceColumns());
        }
        RestCalls.Answer mapping = rest.get("/" + RestCalls.encode(target.index()) + "/_mapping");
        if (mapping.status() == 404) {
            throw new StoreException.Fatal(
                    "index " + target.index() + " of dataset '" + spec.name() + "' does not exist on connection '"
                            + settings.ref() + "': create it, or correct searchIndex.index");
        }
        if (!mapping.ok()) {
            throw new StoreException.Retriable(
                    "reading the mapping of " + target.index() + " answered " + mapping.status(), null);
        }
        List<String> indexes = new ArrayList<>();
        mapping.body().propertyNames().forEach(indexes::add);
        if (target.byId() && indexes.size() != 1) {
            throw new StoreException.Fatal("alias " + target.index() + " of dataset '" + spec.name() + "' names "
                    + indexes.size() + " indexes " + indexes + ": documents by id are deleted from one index; name it");
        }
        for (String index : indexes) {
            if (!withinPrefixes(index)) {
                // an alias within the allow-list may still name an index outside it
                throw new StoreException.Fatal("alias " + target.index() + " of dataset '" + spec.name() + "' names"
                        + " index " + index + ", outside connection '" + settings.ref() + "'s index-prefixes "
                        + settings.indexPrefixes());
            }
            JsonNode mappings = mapping.body().path(index).path("mappings");
            JsonNode source = mappings.path("_source");
            if (!source.path("enabled").asBoolean(true) || source.has("includes") || source.has("excludes")) {
                // the log would hold less than the document, and a restore would create it emptied
                throw new StoreException.Fatal("dataset '" + spec.name() + "': index " + index + " does not keep its"
                        + " documents' whole _source (" + source + "), so they cannot be logged before they are"
                        + " deleted nor restored after");
            }
            if (mappings.path("_routing").path("required").asBoolean(false)) {
                throw new StoreException.Fatal("dataset '" + spec.name() + "': index " + index + " requires a custom"
                        + " _routing, which the adapter cannot derive from a row; such indexes are not served yet");
            }
            JsonNode properties = mappings.path("properties");
            if (!target.byId()) {
                requireType(spec, index, properties, target.termField(), TERM_TYPES, "the term field");
            }
            if (spec.conditionalColumn() instanceof ConditionalColumn.Named named) {
                if (named.kind() != ConditionalColumn.Kind.TIMESTAMP) {
                    throw new StoreException.Fatal("dataset '" + spec.name() + "': a search index is conditioned on a"
                            + " TIMESTAMP field (a date), not a " + named.kind() + "; use a date field or none");
                }
                requireType(spec, index, properties, named.name(), DATE_TYPES, "the conditional column");
                String format = fieldOf(properties, named.name()).path("format").asString("");
                if (format.contains("epoch_second")) {
                    // a number is read as epoch milliseconds: in seconds a newer document would look 1970's
                    throw new StoreException.Fatal("dataset '" + spec.name() + "': the conditional column "
                            + named.name() + " of index " + index + " has format " + format + "; only ISO-8601"
                            + " dates or epoch milliseconds are read as write times");
                }
            }
        }
        RestCalls.Answer aliases = rest.get("/" + RestCalls.encode(target.index()) + "/_alias");
        for (JsonNode index : aliases.body()) {
            JsonNode alias = index.path("aliases").path(target.index());
            if (alias.has("filter")) {
                // documents outside the filter would read as absent while they are there
                throw new StoreException.Fatal("dataset '" + spec.name() + "': alias " + target.index() + " has a"
                        + " filter; name the index itself");
            }
        }
    }

    private boolean withinPrefixes(String index) {
        return settings.indexPrefixes().isEmpty()
                || settings.indexPrefixes().stream().anyMatch(index::startsWith);
    }

    /** The mapping of a dotted field, or a missing node; a nested object along the way is refused. */
    private static JsonNode fieldOf(JsonNode properties, @Nullable String field) {
        JsonNode at = properties;
        String[] parts = String.valueOf(field).split("\\.");
        for (int i = 0; i < parts.length; i++) {
            at = at.path(parts[i]);
            if (i < parts.length - 1) {
                if ("nested".equals(at.path("type").asString(""))) {
                    // a plain query on a nested field matches nothing: every row would read as absent
                    throw new StoreException.Fatal("field " + field + " lies in the nested object " + parts[i]
                            + ", which a term query does not reach; address the index by document id");
                }
                at = at.path("properties");
            }
        }
        return at;
    }

    /** The concrete indexes {@code target} (an index or an alias) names now; empty when it names none. */
    private Set<String> indexesOf(String target) {
        RestCalls.Answer mapping = rest.get("/" + RestCalls.encode(target) + "/_mapping");
        Set<String> indexes = new HashSet<>();
        if (mapping.ok()) {
            mapping.body().propertyNames().forEach(indexes::add);
        }
        return indexes;
    }

    private static void requireType(
            DatasetSpec spec,
            String index,
            JsonNode properties,
            @Nullable String field,
            Set<String> types,
            String what) {
        String type = fieldOf(properties, field).path("type").asString("");
        if (!types.contains(type)) {
            throw new StoreException.Fatal("dataset '" + spec.name() + "': " + what + " " + field + " of index " + index
                    + " is " + (type.isEmpty() ? "not mapped" : "mapped as " + type) + "; it must be one of " + types);
        }
    }

    @Override
    public List<LiveRow> readRows(DatasetSpec spec, List<Map<String, Object>> keys) {
        List<List<Doc>> found = documents.find(spec, keys);
        List<LiveRow> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            List<Doc> docs = found.get(i);
            if (docs.isEmpty()) {
                continue;
            }
            // one row per key, whatever its documents: the log keeps one record per key, and a source's field
            // names are the index's (camelCase, dotted), not column names
            List<Map<String, Object>> logged = new ArrayList<>();
            for (Doc doc : docs) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put(INDEX, doc.index());
                entry.put(ID, doc.id());
                if (doc.routing() != null) {
                    entry.put(ROUTING, doc.routing());
                }
                entry.put(SOURCE, doc.source());
                logged.add(entry);
            }
            rows.add(new LiveRow(keys.get(i), List.of(ColumnValue.of(DOCUMENTS, logged)), newestWrite(spec, docs)));
        }
        return rows;
    }

    @Override
    public List<LiveState> checkLiveState(DatasetSpec spec, List<Map<String, Object>> keys) {
        List<List<Doc>> found = documents.find(spec, keys);
        List<LiveState> states = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            List<Doc> docs = found.get(i);
            if (docs.isEmpty()) {
                states.add(LiveState.absent(keys.get(i)));
                continue;
            }
            states.add(new LiveState(keys.get(i), true, newestWrite(spec, docs)));
        }
        return states;
    }

    /** The newest write time the dataset's conditional column gives a row's documents; null without one. */
    private static @Nullable Long newestWrite(DatasetSpec spec, List<Doc> docs) {
        Long newest = null;
        for (Doc doc : docs) {
            Long micros = doc.writeMicros(spec);
            if (micros != null && (newest == null || micros > newest)) {
                newest = micros;
            }
        }
        return newest;
    }

    @Override
    public int readStatements(DatasetSpec spec, int keyCount) {
        return 1; // one _mget or one _search for the whole batch
    }

    @Override
    public DeletePlan planDelete(DeleteBatch batch) {
        if (!batch.clearColumns().isEmpty()) {
            throw new IllegalArgumentException("the OpenSearch adapter deletes documents; it does not clear fields");
        }
        DatasetSpec spec = batch.spec();
        // the checks again, per batch: an alias may have gained an index, a mapping may have changed since
        checkDataset(spec);
        List<List<Doc>> found = documents.find(spec, batch.keys());
        List<PlannedStatement> statements = new ArrayList<>();
        List<DeletePlan.KeyDecision> decisions = new ArrayList<>();
        for (int i = 0; i < batch.keys().size(); i++) {
            Map<String, Object> key = batch.keys().get(i);
            List<Doc> docs = found.get(i);
            if (docs.isEmpty()) {
                decisions.add(new DeletePlan.KeyDecision(key, DeletePlan.Action.ABSENT));
            } else if (docs.stream()
                    .anyMatch(doc -> doc.writtenAfter(spec, batch.cutoff().micros()))) {
                // a row with any document written after the cut-off is kept whole
                decisions.add(new DeletePlan.KeyDecision(key, DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF));
            } else {
                decisions.add(new DeletePlan.KeyDecision(key, DeletePlan.Action.DELETE_ROW));
                for (Doc doc : docs) {
                    statements.add(new PlannedStatement(
                            DELETE,
                            List.of(
                                    doc.index(),
                                    doc.id(),
                                    doc.seqNo(),
                                    doc.primaryTerm(),
                                    i,
                                    doc.routing() == null ? "" : doc.routing())));
                }
            }
        }
        return new DeletePlan(batch, statements, decisions);
    }

    @Override
    public DeleteOutcome executeDelete(DeletePlan plan) {
        return executeDelete(plan, DeletePace.UNPACED);
    }

    /**
     * By id: one {@code _bulk} of conditional deletes. By term: {@code _delete_by_query} tasks paced by the cluster
     * at {@code pace}'s rate ({@link DeleteByQuery}), naming each planned document and the version the plan read.
     * Either way a key counts as deleted when any of its documents went, kept when one changed since the plan, absent
     * when all were gone already.
     */
    @Override
    public DeleteOutcome executeDelete(DeletePlan plan, DeletePace pace) {
        int skipped = (int) plan.count(DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF);
        int absent = (int) plan.count(DeletePlan.Action.ABSENT);
        if (plan.statements().isEmpty()) {
            return new DeleteOutcome(0, skipped, absent, 0, 0);
        }
        CopyTarget.SearchIndex target = Documents.target(plan.batch().spec());
        Map<Integer, int[]> byKey = target.byId() ? bulkDelete(plan, target) : deleteByQuery(plan, target, pace);
        int deleted = 0;
        for (int[] counts : byKey.values()) {
            // a key is deleted when any of its documents went; one re-indexed since stays and the read-back says so
            if (counts[0] > 0) {
                deleted++;
            } else if (counts[1] > 0) {
                skipped++;
            } else {
                absent++;
            }
        }
        return new DeleteOutcome(deleted, skipped, absent, 0, 1);
    }

    /** Per planned key (by position): documents [deleted, changed since the plan, already gone]. */
    private Map<Integer, int[]> bulkDelete(DeletePlan plan, CopyTarget.SearchIndex target) {
        StringBuilder lines = new StringBuilder();
        List<Integer> keyOf = new ArrayList<>();
        for (PlannedStatement statement : plan.statements()) {
            Map<String, Object> delete = new LinkedHashMap<>();
            delete.put("_index", statement.values().get(0));
            delete.put("_id", statement.values().get(1));
            delete.put("if_seq_no", statement.values().get(2));
            delete.put("if_primary_term", statement.values().get(3));
            if (!"".equals(statement.values().get(5))) {
                delete.put("routing", statement.values().get(5));
            }
            lines.append(RestCalls.JSON.writeValueAsString(Map.of("delete", delete)))
                    .append('\n');
            keyOf.add(keyOf(statement));
        }
        RestCalls.Answer answer = rest.bulk("/_bulk?refresh=true", lines.toString());
        if (!answer.ok()) {
            throw new StoreException.Retriable(
                    "bulk delete on " + target.index() + " answered " + answer.status() + ": " + answer.body(), null);
        }
        Map<Integer, int[]> byKey = new LinkedHashMap<>();
        JsonNode items = answer.body().path("items");
        List<String> failures = new ArrayList<>();
        boolean retriable = true;
        for (int i = 0; i < keyOf.size(); i++) {
            JsonNode item = items.path(i).path("delete");
            int status = item.path("status").asInt();
            int[] counts = byKey.computeIfAbsent(keyOf.get(i), k -> new int[3]);
            if (status == 200) {
                counts[0]++;
            } else if (status == 409) {
                counts[1]++;
            } else if (status == 404) {
                counts[2]++;
            } else {
                failures.add(item.path("_id").asString() + ": " + status + " " + item.path("error"));
                retriable &= status == 429 || status >= 500;
            }
        }
        if (!failures.isEmpty()) {
            String message = "deleting from " + target.index() + " failed for " + failures.size() + " document(s): "
                    + failures.get(0);
            // a rejection or a node away passes, and a retry is safe: each delete is conditioned on the version the
            // plan read; a refusal (a closed index, a missing routing) will be refused again
            if (retriable) {
                throw new StoreException.Retriable(message, null);
            }
            throw new StoreException.Fatal(message);
        }
        return byKey;
    }

    private Map<Integer, int[]> deleteByQuery(DeletePlan plan, CopyTarget.SearchIndex target, DeletePace pace) {
        List<DeleteByQuery.Planned> docs = new ArrayList<>();
        for (PlannedStatement statement : plan.statements()) {
            String routing = (String) statement.values().get(5);
            docs.add(new DeleteByQuery.Planned(
                    (String) statement.values().get(0),
                    (String) statement.values().get(1),
                    ((Number) statement.values().get(2)).longValue(),
                    routing.isEmpty() ? null : routing));
        }
        String column = Objects.requireNonNull(target.column());
        List<Object> values =
                plan.batch().keys().stream().map(key -> key.get(column)).toList();
        List<DeleteByQuery.Fate> fates =
                deleteByQuery.delete(Objects.requireNonNull(target.termField()), values, docs, pace);
        Map<Integer, int[]> byKey = new LinkedHashMap<>();
        List<String> left = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) {
            int[] counts = byKey.computeIfAbsent(keyOf(plan.statements().get(i)), k -> new int[3]);
            switch (fates.get(i)) {
                case GONE -> counts[0]++;
                case CHANGED -> counts[1]++;
                case LEFT -> left.add(docs.get(i).id());
            }
        }
        if (!left.isEmpty() && pace.halted()) {
            throw new DeletePace.Halted("delete-by-query on " + target.index() + " halted with " + left.size()
                    + " planned document(s) left, e.g. " + left.get(0));
        }
        if (!left.isEmpty()) {
            // the query matched fewer documents than the plan found unchanged: a retry deletes no other document
            throw new StoreException.Retriable(
                    "delete-by-query on " + target.index() + " left " + left.size()
                            + " planned document(s) unchanged, e.g. " + left.get(0) + "; trying again",
                    null);
        }
        return byKey;
    }

    private static int keyOf(PlannedStatement statement) {
        return ((Number) statement.values().get(4)).intValue();
    }

    @Override
    public RestoreOutcome restore(DatasetSpec spec, List<DeletionRecord> records) {
        CopyTarget.SearchIndex target = Documents.target(spec);
        Set<String> behind = indexesOf(target.index());
        StringBuilder lines = new StringBuilder();
        List<Integer> recordOf = new ArrayList<>(); // per bulk item, the record it restores
        List<String> unreadable = new ArrayList<>();
        for (int r = 0; r < records.size(); r++) {
            List<Map<?, ?>> docs = documentsOf(records.get(r));
            unreadable.add(docs.isEmpty() ? "the record holds no documents (column " + DOCUMENTS + ")" : null);
            for (Map<?, ?> doc : docs) {
                String into = String.valueOf(doc.get(INDEX));
                if (!behind.contains(into)) {
                    // a record names the index its document was read from; only one the target names now is written
                    into = target.index();
                }
                Map<String, Object> create = new LinkedHashMap<>();
                create.put("_index", into);
                create.put("_id", String.valueOf(doc.get(ID)));
                if (doc.get(ROUTING) instanceof String routing) {
                    create.put("routing", routing); // else it is created in the shard its id routes to, and missed
                }
                lines.append(RestCalls.JSON.writeValueAsString(Map.of("create", create)))
                        .append('\n')
                        .append(RestCalls.JSON.writeValueAsString(doc.get(SOURCE)))
                        .append('\n');
                recordOf.add(r);
            }
        }
        JsonNode items = RestCalls.JSON.createArrayNode();
        if (!recordOf.isEmpty()) {
            RestCalls.Answer answer = rest.bulk("/_bulk?refresh=true", lines.toString());
            if (!answer.ok()) {
                throw new StoreException.Retriable(
                        "restoring into " + target.index() + " answered " + answer.status() + ": " + answer.body(),
                        null);
            }
            items = answer.body().path("items");
        }
        int[][] counts = new int[records.size()][3]; // created, existing, failed
        List<List<String>> notes = new ArrayList<>();
        records.forEach(record -> notes.add(new ArrayList<>()));
        for (int i = 0; i < recordOf.size(); i++) {
            JsonNode item = items.path(i).path("create");
            int status = item.path("status").asInt();
            int r = recordOf.get(i);
            String where = "document " + item.path("_id").asString() + " in "
                    + item.path("_index").asString();
            if (status == 201) {
                counts[r][0]++;
            } else if (status == 409) {
                counts[r][1]++;
                notes.get(r).add(where + " exists (written since, or already restored): kept");
            } else if (status == 429 || status >= 500) {
                // created ones answer 409 on the retry, reported as already there
                throw new StoreException.Retriable("restoring " + where + " answered " + status, null);
            } else {
                counts[r][2]++;
                notes.get(r)
                        .add(where + ": " + status + " "
                                + item.path("error").path("reason").asString(""));
            }
        }
        List<RestoreOutcome.RecordOutcome> outcomes = new ArrayList<>();
        for (int r = 0; r < records.size(); r++) {
            DeletionRecord record = records.get(r);
            RestoreOutcome.Status status;
            String detail;
            if (unreadable.get(r) != null) {
                status = RestoreOutcome.Status.FAILED;
                detail = unreadable.get(r);
            } else if (counts[r][2] > 0) {
                status = RestoreOutcome.Status.FAILED;
                detail = String.join("; ", notes.get(r));
            } else if (counts[r][0] == 0) {
                status = RestoreOutcome.Status.NEWER_DATA_KEPT;
                detail = String.join("; ", notes.get(r));
            } else {
                status = RestoreOutcome.Status.RESTORED;
                detail = counts[r][0] + " document(s) created" + (notes.get(r).isEmpty() ? "" : "; ")
                        + String.join("; ", notes.get(r));
            }
            outcomes.add(new RestoreOutcome.RecordOutcome(record.recordId(), record.primaryKey(), status, detail));
        }
        return new RestoreOutcome(outcomes);
    }

    /** The documents a record logged (its {@value #DOCUMENTS} column), each a map with index, id and source. */
    private static List<Map<?, ?>> documentsOf(DeletionRecord record) {
        List<Map<?, ?>> docs = new ArrayList<>();
        for (ColumnValue column : record.columns()) {
            if (DOCUMENTS.equals(column.name()) && column.value() instanceof List<?> list) {
                for (Object doc : list) {
                    if (doc instanceof Map<?, ?> map && map.get(ID) != null && map.get(SOURCE) instanceof Map) {
                        docs.add(map);
                    }
                }
            }
        }
        return docs;
    }

    /**
     * A deleted document stays in its segment, marked deleted (with a delete marker of its own), until a merge
     * rewrites the segment: the index's {@code docs.deleted} (every shard copy counted, markers included) is what is
     * still on disk. Merges keep soft-deleted documents while the index's retention lease holds
     * ({@code index.soft_deletes.retention_lease.period}, 12 h by default); after it,
     * {@code POST /<index>/_forcemerge?only_expunge_deletes=true} purges them.
     */
    @Override
    public PurgeStatus purgeStatus(DatasetSpec spec, Instant deletedAt) {
        String index = Documents.target(spec).index();
        RestCalls.Answer answer = rest.get("/" + RestCalls.encode(index) + "/_stats/docs");
        if (answer.status() == 404) {
            throw new StoreException.Fatal("index " + index + " of dataset '" + spec.name() + "' no longer exists");
        }
        if (!answer.ok()) {
            throw new StoreException.Retriable("index statistics of " + index + " answered " + answer.status(), null);
        }
        long deleted = answer.body()
                .path("_all")
                .path("total")
                .path("docs")
                .path("deleted")
                .asLong();
        Duration retention = retentionLease(index);
        Instant purgeableAt = deletedAt.plus(retention);
        return new PurgeStatus(
                index,
                deletedAt,
                retention,
                purgeableAt,
                deleted,
                deleted > 0,
                deleted > 0
                        ? deleted + " deleted document(s) and markers are still in the segments of index " + index
                                + "; merges keep them until " + purgeableAt + " (the soft-delete retention lease, "
                                + retention + "), then POST /" + index + "/_forcemerge?only_expunge_deletes=true"
                                + " expunges them"
                        : "no deleted document is left in the segments of index " + index);
    }

    /**
     * With the connection's {@code expunge-deletes}, starts {@code _forcemerge?only_expunge_deletes=true} on the
     * dataset's index (an alias: each index behind it) as a task, unless a force merge already runs on the cluster:
     * merges rewrite segments and one at a time is what a cluster serving live traffic should bear.
     */
    @Override
    public Optional<String> expungeDeleted(DatasetSpec spec) {
        if (!settings.expungeDeletes()) {
            return Optional.empty();
        }
        String index = Documents.target(spec).index();
        RestCalls.Answer running = rest.get("/_tasks?actions=indices:admin/forcemerge*");
        if (!running.ok()) {
            throw new StoreException.Retriable("listing the cluster's force merges answered " + running.status(), null);
        }
        for (JsonNode node : running.body().path("nodes")) {
            if (!node.path("tasks").isEmpty()) {
                return Optional.empty();
            }
        }
        RestCalls.Answer started = rest.post(
                "/" + RestCalls.encode(index) + "/_forcemerge?only_expunge_deletes=true&wait_for_completion=false",
                Map.of());
        if (started.status() == 404) {
            throw new StoreException.Fatal("index " + index + " of dataset '" + spec.name() + "' no longer exists");
        }
        if (!started.ok()) {
            throw new StoreException.Retriable(
                    "force merge of " + index + " answered " + started.status() + ": "
                            + started.body().path("error").path("reason").asString(""),
                    null);
        }
        return Optional.of("POST /" + index + "/_forcemerge?only_expunge_deletes=true, task "
                + started.body().path("task").asString("?"));
    }

    /**
     * How long merges keep soft-deleted documents of {@code index} for replicas' recovery: its
     * {@code index.soft_deletes.retention_lease.period} (12 h unless set), the search index's gc_grace.
     */
    Duration retentionLease(String index) {
        RestCalls.Answer answer = rest.get("/" + RestCalls.encode(index) + "/_settings?include_defaults=true"
                + "&filter_path=*.settings.index.soft_deletes,*.defaults.index.soft_deletes");
        String period = "12h";
        for (JsonNode settings : answer.body()) {
            for (String where : new String[] {"defaults", "settings"}) {
                JsonNode value = settings.path(where)
                        .path("index")
                        .path("soft_deletes")
                        .path("retention_lease")
                        .path("period");
                if (value.isString()) {
                    period = value.asString();
                }
            }
        }
        return timeValue(period);
    }

    /** An OpenSearch time value ({@code 12h}, {@code 30m}, {@code 1s}, {@code 500ms}, {@code 2d}). */
    static Duration timeValue(String value) {
        Matcher m = TIME_VALUE.matcher(value.trim());
        if (!m.matches()) {
            return Duration.ofHours(12);
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    @Override
    public LoadSignal loadSignal() {
        return load.read();
    }

    @Override
    public void close() {
        // the JDK's HTTP client holds no connection the platform must release
    }
}
