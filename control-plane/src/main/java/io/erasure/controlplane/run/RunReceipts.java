package io.erasure.controlplane.run;

import io.erasure.controlplane.receipt.ReceiptSignature;
import io.erasure.controlplane.receipt.ReceiptSigner;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issues a run's receipt ({@link ReceiptBody}) as proof of deletion: serialized once, signed over those
 * exact bytes (HMAC-SHA256, {@link ReceiptSigner}), and kept byte for byte with the run and in S3 as
 * {@code runs/<runId>/receipt.json} plus the signature document {@code runs/<runId>/receipt.json.sig}.
 */
@Component
public class RunReceipts {

    /** Next to the receipt: the signature document. */
    public static final String SIGNATURE_SUFFIX = ".sig";

    private final RunStore runs;
    private final RunBatches batches;
    private final ReceiptSigner signer;
    private final ObjectProvider<S3Client> s3;
    private final JsonMapper json;
    private final Clock clock;
    private final String bucket;

    public RunReceipts(
            RunStore runs,
            RunBatches batches,
            ReceiptSigner signer,
            ObjectProvider<S3Client> s3,
            JsonMapper json,
            Clock clock,
            @Value("${erasure.s3.bucket:#{null}}") String bucket) {
        this.runs = runs;
        this.batches = batches;
        this.signer = signer;
        this.s3 = s3;
        this.json = json;
        this.clock = clock;
        this.bucket = bucket;
    }

    /** The receipt of {@code run}, which ends in {@code outcome}. */
    public Map<String, Object> build(RunRecord run, RunState outcome) {
        return ReceiptBody.of(
                run,
                outcome,
                batches.totalsByDataset(run.id()),
                batches.failures(run.id()),
                batches.keysDigests(run.id(), run.dataset()),
                sha256(json.writeValueAsBytes(run.spec())),
                clock.instant());
    }

    /** Signs the receipt and stores it with the run and in S3 (when S3 is configured); returns its bytes. */
    public byte[] issue(RunRecord run, RunState outcome) {
        byte[] body = json.writeValueAsBytes(build(run, outcome));
        ReceiptSignature signature = signer.sign(body);
        String signatureDocument = json.writeValueAsString(signature);
        runs.recordReceipt(run.id(), body, signatureDocument);
        S3Client client = s3.getIfAvailable();
        if (client != null && bucket != null) {
            String key = S3Layout.receiptKey(RunId.of(run.id()));
            client.putObject(
                    r -> r.bucket(bucket).key(key).contentType("application/json"), RequestBody.fromBytes(body));
            client.putObject(
                    r -> r.bucket(bucket).key(key + SIGNATURE_SUFFIX).contentType("application/json"),
                    RequestBody.fromString(signatureDocument, StandardCharsets.UTF_8));
        }
        return body;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
