package io.erasure.controlplane.run;

import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunState;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/** Runs in PostgreSQL. State moves are compare-and-set on the current state, so a stale move is a no-op. */
@Repository
public class RunStore {

    private static final String RECORD_AUDIT = """
            UPDATE runs SET cutoff_micros = ?, total_rows = ?, candidate_count = ?,
                            counts = counts || jsonb_build_object('audit', ?::jsonb) WHERE id = ?""";
    private static final String RECORD_VALIDATION = """
            UPDATE runs SET final_count = ?, task_count = ?,
                            counts = counts || jsonb_build_object('validation', ?::jsonb) WHERE id = ?""";

    // batches_completed, copy_tasks_published and copy_tasks_reported are running totals kept by RunBatches
    private static final String SELECT = "SELECT r.* FROM runs r";

    // compare-and-set on the state and its version: a stale move changes nothing
    private static final String MOVE = """
            UPDATE runs SET state = ?, version = version + 1, updated_at = ?,
                            steps = steps || jsonb_build_object(?::text, ?::text)
            WHERE id = ? AND state = ? AND version = ?""";

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final Clock clock;

    public RunStore(JdbcTemplate jdbc, JsonMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Inserts a PENDING run; returns false (and changes nothing) if the dataset already has an active
     * run: the partial unique index lets one dataset have only one.
     */
    public boolean insert(
            String id,
            DatasetSpec spec,
            int specRevision,
            IdentifierSource source,
            int sourceRevision,
            boolean dryRun,
            String triggeredBy) {
        Instant now = clock.instant();
        return jdbc.update(
                        """
                        INSERT INTO runs (id, dataset, spec, spec_revision, identifier_source,
                                          identifier_source_revision, state, version, dry_run, triggered_by, steps,
                                          created_at, updated_at)
                        VALUES (?, ?, ?::jsonb, ?, ?::jsonb, ?, 'PENDING', 1, ?, ?, ?::jsonb, ?, ?)
                        ON CONFLICT (dataset) WHERE state NOT IN ('COMPLETED', 'FAILED', 'CANCELLED',
                            'DRY_RUN_COMPLETED')
                        DO NOTHING""",
                        id,
                        spec.name(),
                        json.writeValueAsString(spec),
                        specRevision,
                        json.writeValueAsString(source),
                        sourceRevision,
                        dryRun,
                        triggeredBy,
                        json.writeValueAsString(Map.of(RunState.PENDING.name(), now.toString())),
                        Timestamp.from(now),
                        Timestamp.from(now))
                == 1;
    }

    /** The identifier source the run froze when it started. */
    public IdentifierSource identifierSource(String id) {
        return jdbc.queryForObject(
                "SELECT identifier_source::text FROM runs WHERE id = ?",
                (rs, i) -> json.readValue(rs.getString(1), IdentifierSource.class),
                id);
    }

    public Optional<RunRecord> find(String id) {
        return jdbc.query(SELECT + " WHERE r.id = ?", this::record, id).stream().findFirst();
    }

    /**
     * The run, locked for the rest of the transaction, so events of one run apply one at a time. One statement: a
     * {@code FOR UPDATE} that had to wait returns the row as the transaction it waited for left it.
     */
    public Optional<RunRecord> lock(String id) {
        return jdbc.query(SELECT + " WHERE r.id = ? FOR UPDATE", this::record, id).stream()
                .findFirst();
    }

    public List<RunRecord> list(String dataset, RunState state, int limit) {
        return jdbc.query(
                SELECT + """
                         WHERE (?::text IS NULL OR r.dataset = ?) AND (?::text IS NULL OR r.state = ?)
                        ORDER BY r.created_at DESC LIMIT ?""",
                this::record,
                dataset,
                dataset,
                state == null ? null : state.name(),
                state == null ? null : state.name(),
                Math.max(1, Math.min(limit, 500)));
    }

    public Optional<RunRecord> activeRun(String dataset) {
        return jdbc
                .query(
                        SELECT + " WHERE r.dataset = ? AND r.state NOT IN ('COMPLETED', 'FAILED', 'CANCELLED',"
                                + " 'DRY_RUN_COMPLETED')",
                        this::record,
                        dataset)
                .stream()
                .findFirst();
    }

    /**
     * The last run a dataset's deletions were allowed on before {@code run}: the latest COMPLETED run of the dataset
     * (not a dry-run) that deleted at least one row of it. A run that found nothing, failed or was cancelled allowed
     * nothing, so it is never a baseline. Compares the frozen spec and identifier source (as JSON values: key order
     * and spacing do not count) with {@code run}'s.
     */
    public Optional<Baseline> baseline(String runId) {
        return jdbc
                .query(
                        """
                        SELECT b.id, b.spec_revision, b.identifier_source_revision, b.spec = r.spec AS same_spec,
                               b.identifier_source IS NOT DISTINCT FROM r.identifier_source AS same_source
                        FROM runs r
                        JOIN runs b ON b.dataset = r.dataset AND b.id <> r.id AND b.state = 'COMPLETED'
                                    AND NOT b.dry_run
                                    AND b.created_at <= r.created_at
                        JOIN run_batch_totals t ON t.run_id = b.id AND t.dataset = b.dataset AND t.deleted > 0
                        WHERE r.id = ?
                        ORDER BY b.created_at DESC LIMIT 1""",
                        (rs, i) -> new Baseline(
                                rs.getString("id"),
                                (Integer) rs.getObject("spec_revision"),
                                (Integer) rs.getObject("identifier_source_revision"),
                                rs.getBoolean("same_spec"),
                                rs.getBoolean("same_source")),
                        runId)
                .stream()
                .findFirst();
    }

    /**
     * The run a dataset's deletions were last allowed on ({@link #baseline}), with the revisions it froze and whether
     * the spec and the identifier source are still as it froze them.
     */
    public record Baseline(
            String runId, Integer specRevision, Integer sourceRevision, boolean sameSpec, boolean sameSource) {}

    /** The registry revision of the identifier source the run froze (null for runs started before it was kept). */
    public Integer identifierSourceRevision(String id) {
        return jdbc.queryForObject("SELECT identifier_source_revision FROM runs WHERE id = ?", Integer.class, id);
    }

    /**
     * Moves {@code run} from its current state to {@code target} if the state machine allows it and
     * nobody moved it meanwhile; records when the state was entered.
     */
    public boolean move(RunRecord run, RunState target) {
        if (!run.state().canTransitionTo(target)) {
            return false;
        }
        Instant now = clock.instant();
        return jdbc.update(
                        MOVE,
                        target.name(),
                        Timestamp.from(now),
                        target.name(),
                        now.toString(),
                        run.id(),
                        run.state().name(),
                        run.version())
                == 1;
    }

    /**
     * As {@link #move}, in the same one statement: the run as the move left it, or empty if it did not move (the state
     * machine does not allow it, or somebody moved it meanwhile).
     */
    public Optional<RunRecord> moveTo(RunRecord run, RunState target) {
        if (!run.state().canTransitionTo(target)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return jdbc
                .query(
                        MOVE + " RETURNING *",
                        this::record,
                        target.name(),
                        Timestamp.from(now),
                        target.name(),
                        now.toString(),
                        run.id(),
                        run.state().name(),
                        run.version())
                .stream()
                .findFirst();
    }

    public void recordAudit(String id, long cutoffMicros, long totalRows, long candidateCount, AuditCounts counts) {
        jdbc.update(RECORD_AUDIT, cutoffMicros, totalRows, candidateCount, json.writeValueAsString(counts), id);
    }

    public void recordValidation(String id, long finalCount, int taskCount, ValidationCounts counts) {
        jdbc.update(RECORD_VALIDATION, finalCount, taskCount, json.writeValueAsString(counts), id);
    }

    /**
     * Adds the stores' warnings (e.g. Cassandra: no repair known within gc_grace) to the run's
     * {@code counts.warnings}, each distinct text once; they reach the receipt with the other counts.
     */
    public void recordWarnings(String id, List<String> warnings) {
        jdbc.update("""
                        UPDATE runs SET counts = counts || jsonb_build_object('warnings', (
                            SELECT coalesce(jsonb_agg(DISTINCT w), '[]'::jsonb) FROM (
                                SELECT jsonb_array_elements_text(coalesce(counts -> 'warnings', '[]'::jsonb)) AS w
                                UNION SELECT jsonb_array_elements_text(?::jsonb)) AS all_warnings))
                        WHERE id = ?""", json.writeValueAsString(warnings), id);
    }

    public void recordTasks(String id, int taskCount, long keyCount) {
        jdbc.update("""
                        UPDATE runs SET task_count = ?,
                                        counts = counts || jsonb_build_object('tasks',
                                            jsonb_build_object('taskCount', ?::int, 'keys', ?::bigint))
                        WHERE id = ?""", taskCount, taskCount, keyCount, id);
    }

    public void recordDecision(String id, String approvalReason, String decidedBy) {
        jdbc.update(
                "UPDATE runs SET approval_reason = coalesce(?, approval_reason), decided_by = coalesce(?, decided_by)"
                        + " WHERE id = ?",
                approvalReason,
                decidedBy,
                id);
    }

    public void recordFailure(String id, String reason) {
        jdbc.update("UPDATE runs SET failure_reason = ? WHERE id = ?", reason, id);
    }

    /** Keeps the receipt's exact bytes and signature document, and the same receipt as JSONB for queries. */
    public void recordReceipt(String id, byte[] body, String signature) {
        jdbc.update(
                "UPDATE runs SET receipt = convert_from(?, 'UTF8')::jsonb, receipt_body = ?, receipt_signature = ?"
                        + " WHERE id = ?",
                body,
                body,
                signature,
                id);
    }

    /** The receipt as issued, if the run has one. */
    public Optional<StoredReceipt> storedReceipt(String id) {
        return jdbc
                .query(
                        "SELECT receipt_body, receipt_signature, receipt::text AS legacy FROM runs"
                                + " WHERE id = ? AND receipt IS NOT NULL",
                        (rs, i) -> {
                            byte[] body = rs.getBytes("receipt_body");
                            // receipts issued before they were signed exist only as JSONB
                            return body != null
                                    ? new StoredReceipt(body, rs.getString("receipt_signature"))
                                    : new StoredReceipt(rs.getString("legacy").getBytes(StandardCharsets.UTF_8), null);
                        },
                        id)
                .stream()
                .findFirst();
    }

    /** Replaces the top-level entries {@code deletion} and {@code copies} (if any) of the run's counts. */
    public void recordCounts(String id, DeletionCounts entries) {
        jdbc.update("UPDATE runs SET counts = counts || ?::jsonb WHERE id = ?", json.writeValueAsString(entries), id);
    }

    @SuppressWarnings("unchecked")
    private RunRecord record(ResultSet rs, int row) throws SQLException {
        String receipt = rs.getString("receipt");
        return new RunRecord(
                rs.getString("id"),
                rs.getString("dataset"),
                json.readValue(rs.getString("spec"), DatasetSpec.class),
                (Integer) rs.getObject("spec_revision"),
                RunState.valueOf(rs.getString("state")),
                rs.getInt("version"),
                rs.getBoolean("dry_run"),
                rs.getString("triggered_by"),
                (Long) rs.getObject("cutoff_micros"),
                (Long) rs.getObject("total_rows"),
                (Long) rs.getObject("candidate_count"),
                (Long) rs.getObject("final_count"),
                (Integer) rs.getObject("task_count"),
                rs.getLong("batches_completed"),
                rs.getLong("copy_tasks_published"),
                rs.getLong("copy_tasks_reported"),
                json.readValue(rs.getString("counts"), Map.class),
                json.readValue(rs.getString("steps"), Map.class),
                rs.getString("approval_reason"),
                rs.getString("decided_by"),
                rs.getString("failure_reason"),
                receipt == null ? null : json.readValue(receipt, Map.class),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant());
    }
}
