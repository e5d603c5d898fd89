package io.erasure.deletion.purge;

import io.erasure.deletion.shard.TaskListener;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.task.DeletionTask;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Per dataset, the spec of the last task this service executed and when its last delete was executed: what a
 * store's purge status is asked with. The time is the latest processed batch that deleted rows; a batch is
 * recorded once its delete, read-back and report are done, so it is a little after the delete itself, which only
 * makes the tombstones look purgeable later, never too early.
 */
public class DatasetDeletions implements TaskListener.AfterTask {

    private static final String REMEMBER_SPEC = """
            INSERT INTO dataset_deletions (dataset, store_kind, spec, spec_seen_at)
            VALUES (?, ?, CAST(? AS jsonb), now())
            ON CONFLICT (dataset) DO UPDATE
            SET store_kind = EXCLUDED.store_kind, spec = EXCLUDED.spec, spec_seen_at = EXCLUDED.spec_seen_at""";

    private static final Logger log = LoggerFactory.getLogger(DatasetDeletions.class);

    /** A dataset with executed deletes, under the spec of its last task. */
    public record LastDelete(DatasetSpec spec, Instant deletedAt) {}

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    // specs change rarely: write only when a task brings a spec this replica has not written yet
    private final Map<String, DatasetSpec> written = new ConcurrentHashMap<>();

    public DatasetDeletions(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * Remembers an executed task's spec. Never throws: what the status display needs must not stop a deletion
     * shard (the next task of the dataset writes it again).
     */
    @Override
    public void executed(DeletionTask task) {
        DatasetSpec spec = task.spec();
        if (spec.equals(written.get(spec.name()))) {
            return;
        }
        try {
            jdbc.update(REMEMBER_SPEC, spec.name(), spec.storeKind().name(), json.writeValueAsString(spec));
            written.put(spec.name(), spec);
        } catch (RuntimeException e) {
            log.warn("could not remember the spec of {} for its purge status: {}", spec.name(), e.toString());
        }
    }

    /** Every dataset with at least one executed delete, by name. */
    public List<LastDelete> withDeletes() {
        return jdbc.query(
                """
                        SELECT d.spec::text, last.at
                        FROM dataset_deletions d
                        CROSS JOIN LATERAL (SELECT max(p.first_processed_at) AS at FROM processed_batches p
                                            WHERE p.dataset = d.dataset AND p.rows_deleted > 0) last
                        WHERE last.at IS NOT NULL
                        ORDER BY d.dataset""",
                (rs, i) -> new LastDelete(
                        json.readValue(rs.getString(1), DatasetSpec.class),
                        rs.getObject(2, OffsetDateTime.class).toInstant()));
    }
}
