package io.erasure.store.cassandra.plan;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.store.cassandra.CqlRunner;
import io.erasure.store.cassandra.read.LiveReads;
import io.erasure.store.cassandra.read.StoredKey;
import io.erasure.store.cassandra.schema.TableShape;
import io.erasure.store.spi.DeleteBatch;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.DeletePlan.Action;
import io.erasure.store.spi.DeletePlan.KeyDecision;
import io.erasure.store.spi.LiveState;
import io.erasure.store.spi.PlannedStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides what deleting a batch does, reading but never writing.
 *
 * <p>Per key, from its live read ({@link LiveReads}): {@link Action#ABSENT} (no row),
 * {@link Action#SKIP_WRITTEN_AFTER_CUTOFF} (any cell newer than the cut-off), otherwise a delete. A row with only
 * key columns has no write time and is deleted: should a newer write have re-created it, its newer row marker
 * outlives the delete.
 *
 * <p>A partition's row deletes become one {@link Action#DELETE_PARTITION} only when the identifier is (part
 * of) the partition key, no key of the batch in that partition was written after the cut-off, and a
 * probe of the partition ({@code LIMIT deletable + 1}) returns exactly the clustering keys of the batch's
 * rows there: then no row outside the batch, and nothing newer, is in the partition. Keys are compared as
 * Cassandra stores them ({@link StoredKey}), so two spellings of one value can neither split a partition
 * nor make one row count twice. Every statement is issued {@code USING TIMESTAMP} the batch's cut-off,
 * never "now", so a write landing after the plan survives.
 */
public final class DeletePlanner {

    private final CqlRunner cql;
    private final LiveReads reads;

    public DeletePlanner(CqlRunner cql, LiveReads reads) {
        this.cql = cql;
        this.reads = reads;
    }

    public DeletePlan plan(TableShape shape, DeleteBatch batch) {
        List<Map<String, Object>> keys = batch.keys();
        CutoffTimestamp cutoff = batch.cutoff();
        List<StoredKey> stored = reads.storedKeys(shape, keys);

        Action[] actions = new Action[keys.size()];
        Map<List<String>, List<Integer>> partitions = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            LiveState state = stored.get(i).state();
            actions[i] = !state.present()
                    ? Action.ABSENT
                    : state.writtenAfter(cutoff) ? Action.SKIP_WRITTEN_AFTER_CUTOFF : Action.DELETE_ROW;
            if (state.present()) {
                partitions
                        .computeIfAbsent(stored.get(i).partition(), p -> new ArrayList<>())
                        .add(i);
            }
        }
        List<List<Integer>> whole = shape.spec().identifierInPartitionKey()
                ? wholePartitions(shape, keys, stored, actions, partitions.values())
                : List.of();

        List<PlannedStatement> statements = new ArrayList<>();
        Set<Integer> coveredByPartitionDelete = new HashSet<>();
        for (List<Integer> members : whole) {
            int first = members.get(0);
            statements.add(statement(
                    shape.partitionDeleteCql(), cutoff, shape.keyValues(shape.partitionKey(), keys.get(first))));
            members.forEach(i -> actions[i] = Action.DELETE_PARTITION);
            coveredByPartitionDelete.addAll(members);
        }
        for (List<Integer> members : partitions.values()) {
            for (int i : members) {
                if (actions[i] == Action.DELETE_ROW && !coveredByPartitionDelete.contains(i)) {
                    statements.add(
                            statement(shape.rowDeleteCql(), cutoff, shape.keyValues(shape.primaryKey(), keys.get(i))));
                }
            }
        }
        List<KeyDecision> decisions = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            decisions.add(new KeyDecision(keys.get(i), actions[i]));
        }
        return new DeletePlan(batch, statements, decisions);
    }

    /** The groups of present keys whose partition holds nothing but their rows, all at or before the cut-off. */
    private List<List<Integer>> wholePartitions(
            TableShape shape,
            List<Map<String, Object>> keys,
            List<StoredKey> stored,
            Action[] actions,
            Iterable<List<Integer>> partitions) {
        List<List<Integer>> candidates = new ArrayList<>();
        for (List<Integer> members : partitions) {
            if (members.stream().allMatch(i -> actions[i] == Action.DELETE_ROW)) {
                candidates.add(members);
            }
        }
        if (candidates.isEmpty() || !shape.clustered()) {
            return candidates; // without clustering columns a partition is exactly one row
        }
        List<Statement<?>> probes = new ArrayList<>(candidates.size());
        List<Set<List<String>>> batchRows = new ArrayList<>(candidates.size());
        for (List<Integer> members : candidates) {
            Set<List<String>> rows = new HashSet<>();
            members.forEach(i -> rows.add(stored.get(i).clustering()));
            List<Object> values = new ArrayList<>(shape.keyValues(shape.partitionKey(), keys.get(members.get(0))));
            values.add(rows.size() + 1);
            probes.add(cql.bind(shape.partitionProbeCql(), values));
            batchRows.add(rows);
        }
        List<List<Row>> found =
                cql.readAll("probing partitions of " + shape.spec().quotedTable(), probes);
        List<List<Integer>> whole = new ArrayList<>();
        for (int c = 0; c < candidates.size(); c++) {
            if (clusteringKeys(shape, found.get(c)).equals(batchRows.get(c))) {
                whole.add(candidates.get(c));
            }
        }
        return whole;
    }

    private static Set<List<String>> clusteringKeys(TableShape shape, List<Row> rows) {
        int columns = shape.spec().keyColumns().clustering().size();
        Set<List<String>> keys = new HashSet<>();
        for (Row row : rows) {
            List<String> key = new ArrayList<>(columns);
            for (int column = 0; column < columns; column++) {
                key.add(row.getString(column));
            }
            keys.add(key);
        }
        return keys;
    }

    private static PlannedStatement statement(String text, CutoffTimestamp cutoff, List<Object> keyValues) {
        List<Object> values = new ArrayList<>(keyValues.size() + 1);
        values.add(cutoff.micros());
        values.addAll(keyValues);
        return new PlannedStatement(text, values);
    }
}
