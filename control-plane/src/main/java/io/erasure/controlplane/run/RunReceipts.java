package io.erasure.controlplane.run;

import io.erasure.model.contract.S3Layout;
import io.erasure.model.run.RunId;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's receipt: counts per step and per reason, the batch read-backs and the time each state was
 * entered. Kept with the run and written to {@code runs/<runId>/receipt.json}.
 */
@Component
public class RunReceipts {

    private final RunStore runs;
    private final ObjectProvider<S3Client> s3;
    private final JsonMapper json;
    private final Clock clock;
    private final String bucket;

    public RunReceipts(RunStore runs, ObjectProvider<S3Client> s3, JsonMapper json, Clock clock,
                       org.springframework.core.env.Environment environment) {
        this.runs = runs;
        this.s3 = s3;
        this.json = json;
        this.clock = clock;
        this.bucket = environment.getProperty("erasure.s3.bucket");
    }

    public Map<String, Object> build(RunRecord run) {
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
        receipt.put("deletion", runs.batchTotals(run.id()));
        receipt.put("taskCount", run.taskCount());
        receipt.put("states", run.steps());
        receipt.put("issuedAt", clock.instant().toString());
        return receipt;
    }

    /** Stores the receipt with the run and in S3 (when S3 is configured). */
    public Map<String, Object> issue(RunRecord run) {
        Map<String, Object> receipt = build(run);
        runs.recordReceipt(run.id(), receipt);
        S3Client client = s3.getIfAvailable();
        if (client != null && bucket != null) {
            client.putObject(r -> r.bucket(bucket).key(S3Layout.receiptKey(RunId.of(run.id()))).contentType("application/json"),
                    RequestBody.fromString(json.writeValueAsString(receipt)));
        }
        return receipt;
    }
}
