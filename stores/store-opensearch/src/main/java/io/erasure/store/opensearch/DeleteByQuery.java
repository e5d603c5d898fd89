package io.erasure.store.opensearch;

import io.erasure.store.spi.DeletePace;
import io.erasure.store.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Deletes a term-addressed batch's documents as {@code _delete_by_query} tasks the cluster paces itself
 * ({@code requests_per_second}, from the platform's throttle), and only the documents the plan read and the log holds.
 *
 * <p>A query on the term field alone would also take a document indexed for the row after it was read, which the log
 * does not hold. So each task's query names its documents one by one, by id and by the {@code _seq_no} the plan read
 * (a document re-indexed since has a newer one, higher than any the plan saw in its shard), within the batch's terms.
 * {@code conflicts=proceed} keeps the task going past a document re-indexed while it runs, and {@code max_docs} bounds
 * it to its documents. Afterwards each document is read back by id: gone, changed (kept), or left.
 *
 * <p>Each task holds at most {@value #DOCUMENTS_PER_TASK} documents (two clauses each), within the default
 * {@code indices.query.bool.max_clause_count} of 1024, which counts nested clauses; its scroll batches hold about one
 * second of the rate, since the cluster paces by waiting between batches. While a task runs, a changed rate
 * rethrottles it and a halt cancels it.
 */
final class DeleteByQuery {

    static final int DOCUMENTS_PER_TASK = 400;

    /** A task that deletes nothing for this long is cancelled; the batch is tried again. */
    private static final Duration STALLED = Duration.ofMinutes(2);

    /** A document as the plan read it. */
    record Planned(String index, String id, long seqNo) {}

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
     * Deletes {@code docs} (within the terms {@code field} ∈ {@code values}) task by task; returns each one's fate,
     * in order. Stops before the next task, and cancels the running one, once {@code pace} is halted.
     */
    List<Fate> delete(String field, List<Object> values, List<Planned> docs, DeletePace pace) {
        Map<String, List<Planned>> byIndex = new LinkedHashMap<>();
        docs.forEach(doc ->
                byIndex.computeIfAbsent(doc.index(), i -> new ArrayList<>()).add(doc));
        for (Map.Entry<String, List<Planned>> index : byIndex.entrySet()) {
            List<Planned> all = index.getValue();
            for (int from = 0; from < all.size(); from += DOCUMENTS_PER_TASK) {
                if (pace.halted()) {
                    return fates(docs);
                }
                List<Planned> chunk = all.subList(from, Math.min(all.size(), from + DOCUMENTS_PER_TASK));
                long started = System.nanoTime();
                long deleted = runTask(index.getKey(), field, values, chunk, pace);
                keepPace(deleted, started, pace);
            }
        }
        // what searches (and the index statistics) see, as after a delete by id
        List<String> indexes = byIndex.keySet().stream().map(RestCalls::encode).toList();
        rest.post("/" + String.join(",", indexes) + "/_refresh", Map.of());
        return fates(docs);
    }

    /** Starts one task and waits for it; returns how many documents it deleted. */
    private long runTask(String index, String field, List<Object> values, List<Planned> chunk, DeletePace pace) {
        List<Object> each = new ArrayList<>();
        for (Planned doc : chunk) {
            each.add(Map.of(
                    "bool",
                    Map.of(
                            "filter",
                            List.of(
                                    Map.of("ids", Map.of("values", List.of(doc.id()))),
                                    Map.of("term", Map.of("_seq_no", doc.seqNo()))))));
        }
        Map<String, Object> bool = new LinkedHashMap<>();
        bool.put("filter", List.of(Map.of("terms", Map.of(field, values))));
        bool.put("should", each);
        bool.put("minimum_should_match", 1);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", Map.of("bool", bool));
        body.put("max_docs", chunk.size());
        int rate = pace.rowsPerSecond();
        int scrollSize = Math.max(1, Math.min(chunk.size(), rate));
        // a task of one scroll batch has nothing to pace or rethrottle (the pace is kept between tasks): the call
        // waits for it, which spares storing its result and the tasks API's 100 ms polls (50 ms for 400 documents
        // here, against 110 ms as a task). Refreshed once, after the batch's last task.
        boolean oneBatch = scrollSize == chunk.size();
        String path = "/" + RestCalls.encode(index) + "/_delete_by_query?conflicts=proceed&wait_for_completion="
                + oneBatch + "&requests_per_second=" + requestsPerSecond(rate) + "&scroll_size=" + scrollSize;
        RestCalls.Answer started = rest.post(path, body);
        if (started.status() == 404) {
            throw new StoreException.Fatal("index " + index + " no longer exists; nothing of this batch was deleted");
        }
        if (oneBatch && started.ok()) {
            return counted(index, started.body());
        }
        if (!started.ok() || !started.body().path("task").isString()) {
            // a malformed query or a clause limit set below the default will be refused again
            throw new StoreException.Fatal("delete-by-query on " + index + " was refused (" + started.status() + "): "
                    + started.body()
                            .path("error")
                            .path("reason")
                            .asString(started.body().toString()));
        }
        String task = started.body().path("task").asString();
        return await(index, task, rate, pace);
    }

    private long await(String index, String task, int startRate, DeletePace pace) {
        String encoded = RestCalls.encode(task);
        int rate = startRate;
        long progress = -1;
        long progressedAt = System.nanoTime();
        boolean cancelled = false;
        while (true) {
            // waits up to a second for the task, so its end is seen at once and a halt or a new rate within a second;
            // the wait's timeout answers 500, which only means that the task still runs
            RestCalls.Answer answer = rest.getAnyStatus("/_tasks/" + encoded + "?wait_for_completion=true&timeout=1s");
            if (answer.ok() && answer.body().path("completed").asBoolean(false)) {
                return finished(index, task, answer.body(), cancelled);
            }
            if (answer.status() == 404) {
                // its node left before the result was stored: the retry reads back what this one did
                throw new StoreException.Retriable(
                        "delete-by-query task " + task + " on " + index + " is gone (its node left?)", null);
            }
            if (answer.status() >= 500 && !timedOut(answer)) {
                throw new StoreException.Retriable(
                        "waiting for delete-by-query task " + task + " on " + index + " answered " + answer.status()
                                + ": " + answer.body(),
                        null);
            }
            JsonNode status = answer.ok()
                    ? answer.body().path("task").path("status")
                    : rest.get("/_tasks/" + encoded).body().path("task").path("status");
            long done = status.path("deleted").asLong()
                    + status.path("version_conflicts").asLong();
            if (done != progress) {
                progress = done;
                progressedAt = System.nanoTime();
            }
            if (cancelled) {
                continue; // a cancelled task completes at its next batch
            }
            if (pace.halted()) {
                cancel(task);
                cancelled = true;
            } else if (Duration.ofNanos(System.nanoTime() - progressedAt).compareTo(STALLED) > 0) {
                cancel(task);
                throw new StoreException.Retriable(
                        "delete-by-query task " + task + " on " + index + " made no" + " progress for " + STALLED
                                + "; it was cancelled and the batch is tried again",
                        null);
            } else if (pace.rowsPerSecond() != rate) {
                rate = pace.rowsPerSecond();
                rest.post(
                        "/_delete_by_query/" + encoded + "/_rethrottle?requests_per_second=" + requestsPerSecond(rate),
                        Map.of());
            }
        }
    }

    private static boolean timedOut(RestCalls.Answer answer) {
        return answer.body().toString().contains("Timed out waiting for completion");
    }

    private static long finished(String index, String task, JsonNode answer, boolean cancelled) {
        JsonNode error = answer.path("error");
        JsonNode response = answer.path("response");
        if (error.toString().contains("too_many")) {
            // a clause limit set below the default refuses every task alike
            throw new StoreException.Fatal("delete-by-query on " + index + " was refused: " + error.path("reason")
                    + "; raise indices.query.bool.max_clause_count to its default of 1024 or more");
        }
        if (!error.isMissingNode() && !cancelled) {
            throw new StoreException.Retriable(
                    "delete-by-query task " + task + " on " + index + " failed: " + error, null);
        }
        return counted(index, response);
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

    /**
     * The cluster pads between scroll batches but not after the last: a task of one batch is done at once, so the
     * time the rate gives its documents is waited here, before the next task.
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

    /** Reads every planned document back by index and id: gone, re-indexed since the plan, or still there. */
    private List<Fate> fates(List<Planned> docs) {
        List<Map<String, Object>> wanted = new ArrayList<>();
        for (Planned doc : docs) {
            wanted.add(Map.of("_index", doc.index(), "_id", doc.id()));
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
