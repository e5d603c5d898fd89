package io.erasure.store.redis.plan;

import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PlannedStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code UNLINK} commands of a plan: one per chunk of at most {@code pipeline-size} keys, the keys bound as values.
 */
public final class UnlinkStatements {

    private UnlinkStatements() {}

    public static List<PlannedStatement> of(List<String> keys, int chunkSize) {
        List<PlannedStatement> statements = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += chunkSize) {
            List<String> chunk = keys.subList(from, Math.min(keys.size(), from + chunkSize));
            statements.add(new PlannedStatement(text(chunk.size()), new ArrayList<>(chunk)));
        }
        return statements;
    }

    /** {@code UNLINK ? ? ?}: one placeholder per key. */
    public static String text(int keys) {
        return "UNLINK" + " ?".repeat(keys);
    }

    /**
     * Checks that {@code plan} holds exactly the commands this adapter makes for its keys to delete: nothing but
     * {@code UNLINK}, chunks no larger than {@code chunkSize}, every key to delete once and no other key.
     *
     * @throws IllegalArgumentException if it does not
     */
    public static List<List<String>> requireOwn(DeletePlan plan, List<String> keysToDelete, int chunkSize) {
        List<List<String>> chunks = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean own = true;
        for (PlannedStatement statement : plan.statements()) {
            int size = statement.values().size();
            own &= size >= 1 && size <= chunkSize && statement.text().equals(text(size));
            List<String> chunk = new ArrayList<>(size);
            for (Object value : statement.values()) {
                own &= value instanceof String key && seen.add(key);
                chunk.add(String.valueOf(value));
            }
            chunks.add(chunk);
        }
        if (!own || !seen.equals(Set.copyOf(keysToDelete))) {
            throw new IllegalArgumentException("the plan holds commands this adapter did not make for dataset '"
                    + plan.batch().spec().name() + "' batch " + plan.batch().batchId()
                    + "; plan the batch again with this adapter");
        }
        return chunks;
    }
}
