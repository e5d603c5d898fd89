package io.erasure.store.opensearch;

import io.erasure.store.spi.DeletePace;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Deletes a term-addressed batch's documents with {@code _delete_by_query}, paced by the cluster itself
 * ({@code requests_per_second}, from the platform's throttle), and only the documents the plan read and the log holds.
 *
 * <p>A query on the term field alone would also take a document indexed for the row after it was read, which the log
 * does not hold. So each query names its documents one by one, by id and by the {@code _seq_no} the plan read (a
 * document re-indexed since has a newer one), within the batch's terms; and by routing: a {@code _seq_no} is unique
 * only within a shard, and an id may lie in several shards under custom routings, so a document is matched only under
 * the routing it was read with (none: {@code must_not exists _routing}). {@code conflicts=proceed} keeps a query going
 * past a document re-indexed while it runs, and {@code max_docs} bounds it to its documents. Afterwards each document
 * is read back by id and routing: gone, changed (kept), or left.
 *
 * <p>Each query holds at most {@value #DOCUMENTS_PER_TASK} documents, within the default
 * {@code indices.query.bool.max_clause_count} of 1024, which counts nested clauses. The cluster paces by waiting
 * between scroll batches, so batches hold about one second of the rate; a query whose documents fit one batch has
 * nothing to pace inside and runs in the call (the pace is kept between queries), and one of several batches runs as
 * a task, polled, rethrottled when the rate changes, and cancelled on a halt or on any failure while it is watched.
 */
final class DeleteByQuery {

    static final int DOCUMENTS_PER_TASK = 300;

    /** A task that deletes nothing for this long, beyond the time its own pacing takes, is cancelled. */
    private static final Duration STALLED = Duration.ofMinutes(2);

    /** The longest wait for a cancelled task to stop. */
    private static final Duration CANCEL_WAIT = Duration.ofMinutes(1);

    private static final long MAX_POLL_MILLIS = 500;

    /** A document as the plan read it; {@code routing} is null when it has no custom routing. */
    record Planned(
            String index, String id, long seqNo, @Nullable String routing) {}

    /** What became of a planned document: deleted, re-indexed since the plan (kept), or not reached (halted). */
    enum Fate {
        GONE,
        CHANGED,
        LEFT
    }

    private final RestCalls rest;

    DeleteByQuery(RestCalls rest) {
        this.rest = rest;
    }

    /**
     * Deletes {@code docs} (within the terms {@code field} ∈ {@code values}) query by query; returns each one's fate,
     * in order. Stops before the next query, and cancels the running task, once {@code pace} is halted.
     */
    List<Fate> delete(String field, List<Object> values, List<Planned> docs, DeletePace pace) {
        Map<String, List<Planned>> groups = new LinkedHashMap<>(); // by index, and routed apart from not routed
        docs.forEach(doc -> groups.computeIfAbsent(
                        doc.index() + (doc.routing() == null ? "" : "\n"), g -> new ArrayList<>())
                .add(doc));
        List<String> indexes = new ArrayList<>();
        for (List<Planned> group : groups.values()) {
            String index = group.get(0).index();
            if (!indexes.contains(index)) {
                indexes.add(index);
            }
            for (int from = 0; from < group.size(); from += DOCUMENTS_PER_TASK) {
                if (pace.halted()) {
                    return fates(docs);
                }
                List<Planned> chunk = group.subList(from, Math.min(group.size(), from + DOCUMENTS_PER_TASK));
                long started = System.nanoTime();
                long deleted = run(index, field, values, chunk, pace);
                keepPace(deleted, started, pace);
            }
        }
        // what searches (and the index statistics) see, as after a delete by id; an index gone since is skipped
        rest.post(
                "/" + String.join(",", indexes.stream().map(RestCalls::encode).toList())
                        + "/_refresh?ignore_unavailable=true",
                Map.of());
        return fates(docs);
    }

    /** Runs one query (in the call, or as a task waited for); returns how many documents it deleted. */
    private long run(String index, String field, List<Object> values, List<Planned> chunk, DeletePace pace) {
        int rate = pace.rowsPerSecond();
        int scrollSize = Math.max(1, Math.min(chunk.size(), rate));
        boolean oneBatch = scrollSize == chunk.size();
        // refreshed once, after the batch's last query
        String path = "/" + RestCalls.encode(index) + "/_delete_by_query?conflicts=proceed&wait_for_completion="
                + oneBatch + "&requests_per_second=" + requestsPerSecond(rate) + "&scroll_size=" + scrollSize;
        RestCalls.Answer started = rest.post(path, query(field, values, chunk));
        if (started.status() == 404) {
            throw new StoreException.Fatal("index " + index + " no longer exists: its documents of this batch were not"
                    + " deleted (those of other indexes may have been, as logged)");
        }
        if (!started.ok()) {
            // a malformed query or a clause limit set below the default will be refused again
            throw new StoreException.Fatal("delete-by-query on " + index + " was refused (" + started.status() + "): "
                    + started.body()
                            .path("error")
                            .path("reason")
                            .asString(started.body().toString()));
        }
        if (oneBatch) {
            return counted(index, started.body());
        }
        if (!started.body().path("task").isString()) {
            throw new StoreException.Retriable(
                    "delete-by-query on " + index + " answered no task: " + started.body(), null);
        }
        String task = started.body().path("task").asString();
        boolean completed = false;
        try {
            long deleted = await(index, task, rate, scrollSize, pace);
            completed = true;
            return deleted;
        } finally {
            if (!completed) {
                // whatever stopped the wait (an error, an interrupt) stops the task: nobody would watch it
                cancelQuietly(task);
            }
        }
    }

    private static Map<String, Object> query(String field, List<Object> values, List<Planned> chunk) {
        List<Object> each = new ArrayList<>();
        for (Planned doc : chunk) {
            List<Object> exact = new ArrayList<>();
            exact.add(Map.of("ids", Map.of("values", List.of(doc.id()))));
            exact.add(Map.of("term", Map.of("_seq_no", doc.seqNo())));
            if (doc.routing() != null) {
                exact.add(Map.of("term", Map.of("_routing", doc.routing())));
            }
            each.add(Map.of("bool", Map.of("filter", exact)));
        }
        List<Object> filter = new ArrayList<>();
        filter.add(Map.of("terms", Map.of(field, values)));
        Map<String, Object> bool = new LinkedHashMap<>();
        bool.put("filter", filter);
        if (chunk.get(0).routing() == null) {
            // not routed: a twin indexed under a custom routing in another shard may hold the same _seq_no
            bool.put("must_not", List.of(Map.of("exists", Map.of("field", "_routing"))));
        }
        bool.put("should", each);
        bool.put("minimum_should_match", 1);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", Map.of("bool", bool));
        body.put("max_docs", chunk.size());
        return body;
    }

    /**
     * Polls the task until it completes (a plain {@code GET _tasks/<id>}: its wait would be forwarded to the task's
     * node with a timeout of its own), rethrottling it when the rate changes and cancelling it on a halt or a stall.
     */
    private long await(String index, String task, int startRate, int scrollSize, DeletePace pace) {
        String encoded = RestCalls.encode(task);
        int rate = startRate;
        long progress = -1;
        long progressedAt = System.nanoTime();
        long cancelledAt = 0;
        long pollMillis = 20;
        while (true) {
            RestCalls.Answer answer = rest.get("/_tasks/" + encoded);
            if (answer.status() == 404) {
                // its node left before the result was stored: a retry reads back what it did and deletes the rest
                throw new StoreException.Retriable(
                        "delete-by-query task " + task + " on " + index + " is gone (its node left?)", null);
            }
            if (!answer.ok()) {
                throw new StoreException.Retriable(
                        "reading delete-by-query task " + task + " answered " + answer.status(), null);
            }
            if (answer.body().path("completed").asBoolean(false)) {
                return finished(index, task, answer.body(), cancelledAt != 0);
            }
            JsonNode status = answer.body().path("task").path("status");
            long done = status.path("deleted").asLong()
                    + status.path("version_conflicts").asLong();
            long now = System.nanoTime();
            if (done != progress) {
                progress = done;
                progressedAt = now;
            }
            if (cancelledAt != 0) {
                if (Duration.ofNanos(now - cancelledAt).compareTo(CANCEL_WAIT) > 0) {
                    throw new StoreException.Retriable(
                            "delete-by-query task " + task + " on " + index + " was" + " cancelled " + CANCEL_WAIT
                                    + " ago and still runs",
                            null);
                }
            } else if (pace.halted()) {
                cancel(task);
                cancelledAt = now;
            } else if (Duration.ofNanos(now - progressedAt).compareTo(stallLimit(scrollSize, rate)) > 0) {
                throw new StoreException.Retriable(
                        "delete-by-query task " + task + " on " + index + " made no"
                                + " progress for " + stallLimit(scrollSize, rate)
                                + "; it is cancelled and the batch is tried"
                                + " again",
                        null); // cancelled by run's finally
            } else if (pace.rowsPerSecond() != rate) {
                rate = pace.rowsPerSecond();
                rest.post(
                        "/_delete_by_query/" + encoded + "/_rethrottle?requests_per_second=" + requestsPerSecond(rate),
                        Map.of());
            }
            sleep(pollMillis);
            pollMillis = Math.min(MAX_POLL_MILLIS, pollMillis * 2);
        }
    }

    /** No progress for longer than this is a stall: two minutes beyond three of the task's own pauses. */
    private static Duration stallLimit(int scrollSize, int rate) {
        return STALLED.plusSeconds(3L * scrollSize / Math.max(1, rate));
    }

    private static long finished(String index, String task, JsonNode answer, boolean cancelled) {
        JsonNode error = answer.path("error");
        if (error.toString().contains("too_many_nested_clauses")
                || error.toString().contains("too_many_clauses")) {
            // a clause limit set below the default refuses every query alike
            throw new StoreException.Fatal("delete-by-query on " + index + " was refused: " + error.path("reason")
                    + "; raise indices.query.bool.max_clause_count to its default of 1024 or more");
        }
        if (!error.isMissingNode() && !cancelled) {
            throw new StoreException.Retriable(
                    "delete-by-query task " + task + " on " + index + " failed: " + error, null);
        }
        return counted(index, answer.path("response"));
    }

    /** The documents a finished delete-by-query deleted; its failures fail the batch. */
    private static long counted(String index, JsonNode response) {
        JsonNode failures = response.path("failures");
        if (failures.size() > 0) {
            JsonNode first = failures.path(0);
            int status = first.path("status").asInt();
            String message = "delete-by-query on " + index + " failed for " + failures.size() + " document(s): "
                    + first.path("id").asString("") + " " + status + " " + first.path("cause");
            // a rejection or a node away passes, and a retry is safe: the query names each document's version
            if (status == 429 || status >= 500) {
                throw new StoreException.Retriable(message, null);
            }
            throw new StoreException.Fatal(message);
        }
        return response.path("deleted").asLong();
    }

    private void cancel(String task) {
        rest.post("/_tasks/" + RestCalls.encode(task) + "/_cancel", Map.of());
    }

    private void cancelQuietly(String task) {
        try {
            cancel(task);
        } catch (RuntimeException e) {
            // the cluster is away: the task fails with it, or finishes deleting only its own logged documents
        }
    }

    /**
     * The cluster pads between scroll batches but not after the last: a query of one batch is done at once, so the
     * time the rate gives its documents is waited here, before the next query.
     */
    private static void keepPace(long deleted, long startedNanos, DeletePace pace) {
        int rate = pace.rowsPerSecond();
        if (rate == Integer.MAX_VALUE || deleted == 0) {
            return;
        }
        long dueNanos = startedNanos + deleted * 1_000_000_000L / rate;
        while (System.nanoTime() < dueNanos && !pace.halted()) {
            sleep(Math.min(200, Math.max(1, (dueNanos - System.nanoTime()) / 1_000_000)));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException.Retriable("interrupted while a delete-by-query ran", e);
        }
    }

    private static String requestsPerSecond(int rate) {
        return rate == Integer.MAX_VALUE ? "-1" : Integer.toString(Math.max(1, rate));
    }

    /** Reads every planned document back by index, id and routing: gone, re-indexed since the plan, or still there. */
    private List<Fate> fates(List<Planned> docs) {
        List<Map<String, Object>> wanted = new ArrayList<>();
        for (Planned doc : docs) {
            Map<String, Object> get = new LinkedHashMap<>();
            get.put("_index", doc.index());
            get.put("_id", doc.id());
            if (doc.routing() != null) {
                get.put("routing", doc.routing());
            }
            wanted.add(get);
        }
        RestCalls.Answer answer = rest.post("/_mget?_source=false", Map.of("docs", wanted));
        if (!answer.ok()) {
            throw new StoreException.Retriable("reading back the deleted documents answered " + answer.status(), null);
        }
        List<Fate> fates = new ArrayList<>();
        JsonNode found = answer.body().path("docs");
        for (int i = 0; i < docs.size(); i++) {
            JsonNode doc = found.path(i);
            if (doc.has("error")) {
                throw new StoreException.Retriable(
                        "reading back document " + docs.get(i).id() + " of "
                                + docs.get(i).index() + " failed: " + doc.path("error"),
                        null);
            }
            if (!doc.path("found").asBoolean(false)) {
                fates.add(Fate.GONE);
            } else if (doc.path("_seq_no").asLong() != docs.get(i).seqNo()) {
                fates.add(Fate.CHANGED);
            } else {
                fates.add(Fate.LEFT);
            }
        }
        return fates;
    }
}
