package io.erasure.deletion.fanout;

import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.record.ColumnValue;
import io.erasure.model.task.DeletionTask;
import io.erasure.store.spi.LiveRow;
import io.erasure.support.tasks.DeletionTaskPublisher;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * <p>Crash safety: the values a copy key is made of are {@linkplain #remember remembered} before the
 * source delete; a batch redelivered after a crash between the delete and the publish finds its rows
 * absent, and the remembered values still reach the copies.
 */
public class CopyFanOut {

    private static final TypeReference<Map<String, Object>> VALUES = new TypeReference<>() {
    };

    private final DeletionTaskPublisher publisher;
    private final JsonMapper json;
    private final JdbcTemplate jdbc;

    public CopyFanOut(DeletionTaskPublisher publisher, JsonMapper json, JdbcTemplate jdbc) {
        this.publisher = publisher;
        this.json = json;
        this.jdbc = jdbc;
    }

    /** Keeps, until the batch is reported, the source values the task's copies need of rows about to be deleted. */
    public void remember(DeletionTask task, String batchId, Collection<LiveRow> rows) {
        if (task.spec().copies().isEmpty() || rows.isEmpty()) {
            return;
        }
        Set<String> needed = neededColumns(task);
        List<Object[]> args = new ArrayList<>();
        for (LiveRow row : rows) {
            Map<String, Object> values = new LinkedHashMap<>(row.key());
            for (ColumnValue column : row.columns()) {
                if (needed.contains(column.name()) && column.value() != null) {
                    values.putIfAbsent(column.name(), column.value());
                }
            }
            values.keySet().retainAll(needed);
            args.add(new Object[]{batchId, CanonicalKey.render(row.key()), json.writeValueAsString(values)});
        }
        jdbc.batchUpdate("""
                INSERT INTO batch_copy_sources (batch_id, source_key, copy_values) VALUES (?, ?, ?::jsonb)
                ON CONFLICT (batch_id, source_key) DO NOTHING""", args);
    }

    /**
     * Publishes the copy tasks for the source keys that are gone. Keys {@code deleted} by this delivery
     * give copy tasks cut off at {@code deletedAt} (when the source rows were gone: a copy entry written
     * before it may have been filled from a deleted row, one written after cannot have been). Keys found
     * already absent (deleted by an earlier delivery of the batch, through the remembered values, or gone
     * before, when their copy keys need no more than the primary key) give copy tasks at the source's own
     * cut-off, since when they went is unknown. Returns how many tasks were published (the run waits for them).
     */
    public int publish(DeletionTask task, String batchId, Collection<Map<String, Object>> deleted,
                       Collection<Map<String, Object>> alreadyAbsent, Instant deletedAt) {
        if (task.spec().copies().isEmpty() || (deleted.isEmpty() && alreadyAbsent.isEmpty())) {
            return 0;
        }
        Map<String, Map<String, Object>> remembered = remembered(batchId);
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

    private static Set<Map<String, Object>> copyKeys(DeletionTask task, DatasetCopy copy,
                                                     Collection<Map<String, Object>> sourceKeys,
                                                     Map<String, Map<String, Object>> remembered) {
        boolean keyOnly = task.spec().keyColumns().primaryKey().containsAll(copy.sourceColumns(task.spec()));
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

    private static void addTasks(List<DeletionTask> tasks, DeletionTask source, DatasetCopy copy,
                                 Set<Map<String, Object>> copyKeys, CutoffTimestamp cutoff) {
        for (List<Map<String, Object>> part : DeletionTask.taskSized(List.copyOf(copyKeys))) {
            tasks.add(DeletionTask.forCopy(source, copy, part, cutoff));
        }
    }

    /** Drops the remembered values once the batch is reported: the platform keeps no copy it does not need. */
    public void forget(String batchId) {
        jdbc.update("DELETE FROM batch_copy_sources WHERE batch_id = ?", batchId);
    }

    private Set<String> neededColumns(DeletionTask task) {
        Set<String> needed = new LinkedHashSet<>(task.spec().keyColumns().primaryKey());
        task.spec().copies().forEach(copy -> needed.addAll(copy.sourceColumns(task.spec())));
        return needed;
    }

    private Map<String, Map<String, Object>> remembered(String batchId) {
        Map<String, Map<String, Object>> values = new HashMap<>();
        jdbc.query("SELECT source_key, copy_values FROM batch_copy_sources WHERE batch_id = ?",
                rs -> {
                    values.put(rs.getString(1), json.readValue(rs.getString(2), VALUES));
                }, batchId);
        return values;
    }

    private void send(List<DeletionTask> tasks) {
        try {
            publisher.publish(tasks);
        } catch (IllegalStateException e) {
            // the batch is redelivered and publishes the same tasks again (same ids, applied once)
            throw new io.erasure.store.spi.StoreException.Retriable("could not publish copy tasks: " + e.getMessage(), e);
        }
    }
}
