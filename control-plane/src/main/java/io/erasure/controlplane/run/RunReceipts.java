package io.erasure.controlplane.run;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's receipt: counts per step and per reason, the batch read-backs of the dataset and of each
 * copy, and the time each state was entered. Kept with the run and written to {@code runs/<runId>/receipt.json}.
 */
@Component
public class RunReceipts {

    private final RunStore runs;
    private final RunBatches batches;
    private final ObjectProvider<S3Client> s3;
    private final JsonMapper json;
    private final Clock clock;
    private final String bucket;

    public RunReceipts(RunStore runs, RunBatches batches, ObjectProvider<S3Client> s3, JsonMapper json, Clock clock,
                       org.springframework.core.env.Environment environment) {
        this.runs = runs;
        this.batches = batches;
        this.s3 = s3;
        this.json = json;
        this.clock = clock;
        this.bucket = environment.getProperty("erasure.s3.bucket");
    }

    /** The receipt of {@code run}, which ends in {@code outcome}. */
    public Map<String, Object> build(RunRecord run, RunState outcome) {
        Map<String, BatchTotals> totals = batches.totalsByDataset(run.id(), run.dataset());
        Map<String, Object> receipt = new LinkedHashMap<>();
        receipt.put("runId", run.id());
        receipt.put("dataset", run.dataset());
        receipt.put("datasetRevisionSpec", run.spec());
        receipt.put("dryRun", run.dryRun());
        receipt.put("triggeredBy", run.triggeredBy());
        receipt.put("approvedBy", run.decidedBy());
        receipt.put("cutoffMicros", run.cutoffMicros());
        receipt.put("audit", run.counts().getOrDefault("audit", Map.of()));
        receipt.put("validation", run.counts().getOrDefault("validation", Map.of()));
        receipt.put("deletion", totals.getOrDefault(run.dataset(), BatchTotals.NONE));
        receipt.put("copies", CopyTotals.of(run, totals, batches.failures(run.id())));
        receipt.put("taskCount", run.taskCount());
        Map<String, Object> copyTasks = new LinkedHashMap<>();
        copyTasks.put("published", run.copyTasksPublished());
        copyTasks.put("reported", run.copyTasksReported());
        receipt.put("copyTasks", copyTasks);
        receipt.put("outcome", outcome);
        receipt.put("failureReason", run.failureReason());
        receipt.put("states", run.steps());
        receipt.put("issuedAt", clock.instant().toString());
        return receipt;
    }

    /** Stores the receipt with the run and in S3 (when S3 is configured). */
    public Map<String, Object> issue(RunRecord run, RunState outcome) {
        Map<String, Object> receipt = build(run, outcome);
        runs.recordReceipt(run.id(), receipt);
        S3Client client = s3.getIfAvailable();
        if (client != null && bucket != null) {
            client.putObject(r -> r.bucket(bucket).key(S3Layout.receiptKey(RunId.of(run.id()))).contentType("application/json"),
                    RequestBody.fromString(json.writeValueAsString(receipt)));
        }
        return receipt;
    }
}
