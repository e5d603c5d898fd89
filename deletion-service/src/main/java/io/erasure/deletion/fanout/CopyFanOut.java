package io.erasure.deletion.fanout;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.LiveRow;
import io.erasure.store.spi.StoreException.Retriable;
import io.erasure.support.tasks.DeletionTaskPublisher;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lineage fan-out: every registered copy of a deleted source row is deleted through the copy's own
 * adapter, by a copy task ({@link DeletionTask#forCopy}) that the deletion shards execute like any task
 * (plan, log, delete, read back, report). Copy tasks are published only once the source rows are read
 * back as gone, so a cache cannot be refilled from its source; each copy has its own tasks, so a failing
 * copy is retried on its own and does not hold back the others.
 *
 * <p>Crash safety: the values a copy key is made of, where it needs more than the source's primary key, are
 * {@linkplain #remember remembered} before the source delete; a batch redelivered after a crash between the delete
 * and the publish finds its rows absent, and the remembered values (or, for copies keyed by the primary key, the
 * absent keys themselves) still reach the copies. The delivery that remembered them uses them from memory.
 */
public class CopyFanOut {

    private static final TypeReference<Map<String, Object>> VALUES = new TypeReference<>() {};

    private final DeletionTaskPublisher publisher;
    private final JsonMapper json;
    private final JdbcTemplate jdbc;

    public CopyFanOut(DeletionTaskPublisher publisher, JsonMapper json, JdbcTemplate jdbc) {
        this.publisher = publisher;
        this.json = json;
        this.jdbc = jdbc;
    }

    /**
     * The source values of the copy keys of rows this delivery read, as {@link #remember} stored them (by canonical
     * source key); none for a dataset without copies.
     */
    public record Remembered(Map<String, Map<String, Object>> values) {
        public static final Remembered NONE = new Remembered(Map.of());

        public Remembered {
            values = Map.copyOf(values);
        }
    }

    /**
     * Keeps, until the batch is recorded as done ({@code ProcessedBatches.done} drops them), the source values the
     * task's copies need of rows about to be deleted: one statement for the whole batch. A dataset without copies, or
     * whose copies are keyed by its primary key alone, writes nothing. Returns the values as they were stored, so
     * {@link #publish} needs to read back only what an earlier delivery remembered.
     */
    public Remembered remember(DeletionTask task, String batchId, Collection<LiveRow> rows) {
        if (!needsRowValues(task) || rows.isEmpty()) {
            return Remembered.NONE;
        }
        Set<String> needed = neededColumns(task);
        List<String> sourceKeys = new ArrayList<>(rows.size());
        List<String> stored = new ArrayList<>(rows.size());
        Map<String, Map<String, Object>> remembered = new HashMap<>();
        for (LiveRow row : rows) {
            Map<String, Object> values = new LinkedHashMap<>(row.key());
            for (ColumnValue column : row.columns()) {
                if (needed.contains(column.name()) && column.value() != null) {
                    values.putIfAbsent(column.name(), column.value());
                }
            }
            values.keySet().retainAll(needed);
            String sourceKey = CanonicalKey.render(row.key());
            String valuesJson = json.writeValueAsString(values);
            sourceKeys.add(sourceKey);
            stored.add(valuesJson);
            // as a later delivery would read them back: through their JSON
            remembered.put(sourceKey, json.readValue(valuesJson, VALUES));
        }
        jdbc.update(connection -> {
            PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO batch_copy_sources (batch_id, source_key, copy_values)
                    SELECT ?, source_key, copy_values::jsonb FROM unnest(?::text[], ?::text[]) AS v(source_key,
                        copy_values)
                    ON CONFLICT (batch_id, source_key) DO NOTHING""");
            insert.setString(1, batchId);
            insert.setArray(2, connection.createArrayOf("text", sourceKeys.toArray()));
            insert.setArray(3, connection.createArrayOf("text", stored.toArray()));
            return insert;
        });
        return new Remembered(remembered);
    }

    /**
     * Publishes the copy tasks for the source keys that are gone. Keys {@code deleted} by this delivery
     * give copy tasks cut off at {@code deletedAt} (when the source rows were gone: a copy entry written
     * before it may have been filled from a deleted row, one written after cannot have been). Keys found
     * already absent (deleted by an earlier delivery of the batch, through the remembered values, or gone
     * before, when their copy keys need no more than the primary key) give copy tasks at the source's own
     * cut-off, since when they went is unknown. {@code rememberedNow} is what this delivery {@linkplain #remember
     * remembered}; an earlier delivery's values are read back only for keys it lacks. Returns how many tasks were
     * published (the run waits for them).
     */
    public int publish(
            DeletionTask task,
            String batchId,
            Remembered rememberedNow,
            Collection<Map<String, Object>> deleted,
            Collection<Map<String, Object>> alreadyAbsent,
            Instant deletedAt) {
        if (task.spec().copies().isEmpty() || (deleted.isEmpty() && alreadyAbsent.isEmpty())) {
            return 0;
        }
        Map<String, Map<String, Object>> inHand = rememberedNow.values();
        boolean allInHand = Stream.concat(deleted.stream(), alreadyAbsent.stream())
                .allMatch(key -> inHand.containsKey(CanonicalKey.render(key)));
        // an earlier delivery's values, for keys it deleted before a crash
        Map<String, Map<String, Object>> remembered = allInHand || !needsRowValues(task) ? inHand : remembered(batchId);
        CutoffTimestamp goneAt = CutoffTimestamp.fromInstant(deletedAt);
        CutoffTimestamp deletedCutoff = goneAt.micros() > task.cutoff().micros() ? goneAt : task.cutoff();
        List<DeletionTask> copyTasks = new ArrayList<>();
        for (DatasetCopy copy : task.spec().copies()) {
            Set<Map<String, Object>> deletedCopyKeys = copyKeys(task, copy, deleted, remembered);
            Set<Map<String, Object>> absentCopyKeys = copyKeys(task, copy, alreadyAbsent, remembered);
            absentCopyKeys.removeAll(deletedCopyKeys);
            addTasks(copyTasks, task, copy, deletedCopyKeys, deletedCutoff);
            addTasks(copyTasks, task, copy, absentCopyKeys, task.cutoff());
        }
        send(copyTasks);
        return copyTasks.size();
    }

    /**
     * Whether a copy key of the task needs a source value beyond the primary key, which only the deleted row had.
     * Without one (no copies, or copies keyed by the source key alone: every table mapping) nothing needs remembering:
     * a redelivery finds the keys absent and derives the copy keys from them.
     */
    private static boolean needsRowValues(DeletionTask task) {
        return task.spec().copies().stream().anyMatch(copy -> !keyOnly(task, copy));
    }

    private static boolean keyOnly(DeletionTask task, DatasetCopy copy) {
        return task.spec().keyColumns().primaryKey().containsAll(copy.sourceColumns(task.spec()));
    }

    private static Set<Map<String, Object>> copyKeys(
            DeletionTask task,
            DatasetCopy copy,
            Collection<Map<String, Object>> sourceKeys,
            Map<String, Map<String, Object>> remembered) {
        boolean keyOnly = keyOnly(task, copy);
        Set<Map<String, Object>> copyKeys = new LinkedHashSet<>();
        for (Map<String, Object> key : sourceKeys) {
            Map<String, Object> values = remembered.get(CanonicalKey.render(key));
            if (values == null && keyOnly) {
                values = key;
            }
            if (values != null) {
                copyKeys.add(CanonicalKey.copyOf("copy key", copy.keyOf(task.spec(), values)));
            }
        }
        return copyKeys;
    }

    private static void addTasks(
            List<DeletionTask> tasks,
            DeletionTask source,
            DatasetCopy copy,
            Set<Map<String, Object>> copyKeys,
            CutoffTimestamp cutoff) {
        for (List<Map<String, Object>> part : DeletionTask.taskSized(List.copyOf(copyKeys))) {
            tasks.add(DeletionTask.forCopy(source, copy, part, cutoff));
        }
    }

    private Set<String> neededColumns(DeletionTask task) {
        Set<String> needed = new LinkedHashSet<>(task.spec().keyColumns().primaryKey());
        task.spec().copies().forEach(copy -> needed.addAll(copy.sourceColumns(task.spec())));
        return needed;
    }

    private Map<String, Map<String, Object>> remembered(String batchId) {
        Map<String, Map<String, Object>> values = new HashMap<>();
        jdbc.query(
                "SELECT source_key, copy_values FROM batch_copy_sources WHERE batch_id = ?",
                rs -> {
                    values.put(rs.getString(1), json.readValue(rs.getString(2), VALUES));
                },
                batchId);
        return values;
    }

    private void send(List<DeletionTask> tasks) {
        try {
            publisher.publish(tasks);
        } catch (IllegalStateException e) {
            // the batch is redelivered and publishes the same tasks again (same ids, applied once)
            throw new Retriable("could not publish copy tasks: " + e.getMessage(), e);
        }
    }
}
