package io.erasure.audit.units;

import io.erasure.backup.format.BackupBucket;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.run.RunId;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit's own bookkeeping, kept in S3 beside the run (not in any replica's memory), so any
 * replica can pick a run up where another stopped:
 *
 * <pre>
 * runs/&lt;runId&gt;/audit/plan.json                 what is audited (written once)
 * runs/&lt;runId&gt;/audit/units/part-NNNNN.json     one per finished unit: rows scanned, candidates
 * runs/&lt;runId&gt;/audit/failed.json               the run failed (reason); units stop
 * runs/&lt;runId&gt;/audit/cancelled.json            the run was cancelled; units stop
 * runs/&lt;runId&gt;/audit/completed.json            every unit finished and AuditCompleted was sent
 * </pre>
 *
 * Kept outside {@code candidates/}, which holds only candidate part files for validation.
 */
public final class AuditProgress {

    private final BackupBucket bucket;
    private final JsonMapper json;

    public AuditProgress(BackupBucket bucket, JsonMapper json) {
        this.bucket = bucket;
        this.json = json;
    }

    public static String prefix(String runId) {
        return S3Layout.runPrefix(RunId.of(runId)) + "audit/";
    }

    public static String planKey(String runId) {
        return prefix(runId) + "plan.json";
    }

    public static String unitsPrefix(String runId) {
        return prefix(runId) + "units/";
    }

    public static String unitKey(String runId, int partIndex) {
        return unitsPrefix(runId) + String.format("part-%05d.json", partIndex);
    }

    public static String failedKey(String runId) {
        return prefix(runId) + "failed.json";
    }

    public static String cancelledKey(String runId) {
        return prefix(runId) + "cancelled.json";
    }

    public static String completedKey(String runId) {
        return prefix(runId) + "completed.json";
    }

    public Optional<AuditPlan> plan(String runId) {
        return read(planKey(runId), AuditPlan.class);
    }

    public void savePlan(AuditPlan plan) {
        write(planKey(plan.runId()), plan);
    }

    public boolean unitDone(String runId, int partIndex) {
        return bucket.exists(unitKey(runId, partIndex));
    }

    public void markUnitDone(String runId, UnitOutcome outcome) {
        write(unitKey(runId, outcome.partIndex()), outcome);
    }

    /**
     * How many units finished: one LIST, however many units (S3 lists are strongly consistent: a
     * marker written before this call is counted).
     */
    public int finishedUnitCount(String runId) {
        return (int) unitKeys(runId).count();
    }

    /** Every finished unit's outcome: one GET per unit, so only once all are done. */
    public List<UnitOutcome> finishedUnits(String runId) {
        return unitKeys(runId)
                .map(key -> read(key, UnitOutcome.class).orElseThrow())
                .toList();
    }

    private Stream<String> unitKeys(String runId) {
        return bucket
                .s3()
                .listObjectsV2Paginator(r -> r.bucket(bucket.bucket()).prefix(unitsPrefix(runId)))
                .contents()
                .stream()
                .map(S3Object::key);
    }

    /** Why the run stopped (failed or cancelled), if it did. */
    public Optional<String> stopped(String runId) {
        Optional<Stop> failed = read(failedKey(runId), Stop.class);
        if (failed.isPresent()) {
            return Optional.of(failed.get().reason());
        }
        return read(cancelledKey(runId), Stop.class).map(stop -> "cancelled: " + stop.reason());
    }

    public void markFailed(String runId, String reason) {
        write(failedKey(runId), new Stop(reason));
    }

    public void markCancelled(String runId, String reason) {
        write(cancelledKey(runId), new Stop(reason));
    }

    public boolean completed(String runId) {
        return bucket.exists(completedKey(runId));
    }

    /** Marks the run's audit completed, with its totals (the units' outcomes summed). */
    public void markCompleted(String runId, UnitOutcome totals) {
        write(completedKey(runId), totals);
    }

    private void write(String key, Object value) {
        byte[] bytes = json.writeValueAsBytes(value);
        bucket.s3()
                .putObject(
                        r -> r.bucket(bucket.bucket()).key(key).contentType("application/json"),
                        RequestBody.fromBytes(bytes));
    }

    private <T> Optional<T> read(String key, Class<T> type) {
        try {
            byte[] bytes = bucket.s3()
                    .getObjectAsBytes(r -> r.bucket(bucket.bucket()).key(key))
                    .asByteArray();
            return Optional.of(json.readValue(bytes, type));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /** Body of the failed and cancelled markers. */
    public record Stop(String reason) {}
}
