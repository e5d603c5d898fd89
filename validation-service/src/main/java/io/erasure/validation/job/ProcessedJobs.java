package io.erasure.validation.job;

import io.erasure.model.key.DeterministicId;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Jobs already carried out, keyed by the job and the scope of its effect (DESIGN invariant 4): a
 * redelivered job is counted here and not carried out again.
 */
@Component
public class ProcessedJobs {

    private final JdbcTemplate jdbc;

    public ProcessedJobs(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** True if this job was done before (and counts this delivery). */
    public boolean alreadyDone(String jobId, String... scope) {
        return jdbc.update(
                        "UPDATE processed_jobs SET deliveries = deliveries + 1 WHERE job_id = ? AND scope_hash = ?",
                        jobId,
                        scopeHash(scope))
                > 0;
    }

    /** Records the job as done; called only after all its effects are out. */
    public void markDone(String jobId, String runId, String... scope) {
        jdbc.update("""
                        INSERT INTO processed_jobs (job_id, scope_hash, run_id) VALUES (?, ?, ?)
                        ON CONFLICT (job_id, scope_hash) DO NOTHING""", jobId, scopeHash(scope), runId);
    }

    /** True if the job was recorded, without counting a delivery. */
    public boolean isRecorded(String jobId, String... scope) {
        return deliveries(jobId, scope) > 0;
    }

    public int deliveries(String jobId, String... scope) {
        return jdbc
                .query(
                        "SELECT deliveries FROM processed_jobs WHERE job_id = ? AND scope_hash = ?",
                        (rs, i) -> rs.getInt(1),
                        jobId,
                        scopeHash(scope))
                .stream()
                .findFirst()
                .orElse(0);
    }

    private static String scopeHash(String... scope) {
        return DeterministicId.sha256Hex(scope);
    }
}
