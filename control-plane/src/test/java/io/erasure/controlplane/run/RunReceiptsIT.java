package io.erasure.controlplane.run;

import static io.erasure.controlplane.run.RunCopiesIT.copyBatch;
import static io.erasure.controlplane.run.RunCopiesIT.number;
import static io.erasure.controlplane.run.RunCopiesIT.sourceBatch;
import static io.erasure.controlplane.run.RunCopiesIT.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.erasure.controlplane.receipt.ReceiptSigner;
import io.erasure.infra.LocalEngines;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.run.RunId;
import io.erasure.model.run.RunState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpEntity;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.util.MultiValueMap;

/** Issue 12: a run's receipt is signed over its exact bytes, verifiable through the API and with openssl. */
class RunReceiptsIT extends RunEventsTestSupport {

    /** README.md, "Verify a receipt": run in the directory holding receipt.json and receipt.json.sig. */
    static final String VERIFY_COMMAND =
            "test \"$(openssl dgst -sha256 -hmac \"$KEY\" receipt.json | awk '{print $NF}')\""
                    + " = \"$(grep -o '[0-9a-f]\\{64\\}' receipt.json.sig)\" && echo valid || echo INVALID";

    @Value("${erasure.receipts.signing-key}")
    String signingKey;

    @TempDir
    Path dir;

    @Test
    void aReceiptVerifiesWhileATamperedOneOrOneSignedWithAnotherKeyDoesNot() {
        Issued issued = completedRun();
        assertThat(issued.signature()).startsWith("{\"alg\":\"HmacSHA256\",\"keyId\":\"local-1\",\"signature\":\"");
        assertThat(s3Bytes(issued.runId(), "")).as("S3 holds the same bytes").isEqualTo(issued.body());
        assertThat(new String(s3Bytes(issued.runId(), ".sig"), StandardCharsets.UTF_8))
                .isEqualTo(issued.signature());

        assertThat(verify(issued.body(), issued.signature()))
                .containsEntry("valid", true)
                .containsEntry("keyId", "local-1");

        byte[] flipped = issued.body().clone();
        flipped[flipped.length / 2] ^= 1;
        assertThat(verify(flipped, issued.signature())).containsEntry("valid", false);

        String text = new String(issued.body(), StandardCharsets.UTF_8);
        assertThat(text).contains("\"deleted\":10,");
        byte[] edited = text.replaceFirst("\"deleted\":10,", "\"deleted\":9,").getBytes(StandardCharsets.UTF_8);
        Map<String, Object> editedVerdict = verify(edited, issued.signature());
        assertThat(editedVerdict).containsEntry("valid", false);
        assertThat((String) editedVerdict.get("reason")).contains("does not match these bytes");

        String otherKey =
                json.writeValueAsString(new ReceiptSigner("local-1", signingKey + "-other").sign(issued.body()));
        assertThat(verify(issued.body(), otherKey)).containsEntry("valid", false);

        as("viewer")
                .get()
                .uri("/api/runs/" + issued.runId() + "/receipt")
                .exchange()
                .expectStatus()
                .isOk();
        RunRecord run = runs.find(issued.runId()).orElseThrow();
        assertThat(run.receipt())
                .as("the JSONB copy is the same receipt")
                .isEqualTo(json.readValue(issued.body(), Map.class));
        anonymous()
                .get()
                .uri("/api/runs/" + issued.runId() + "/receipt")
                .exchange()
                .expectStatus()
                .isUnauthorized();
        anonymous()
                .post()
                .uri("/api/receipts/verify")
                .contentType(MediaType.MULTIPART_FORM_DATA)
                .body(parts(issued.body(), issued.signature()))
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void theDocumentedOpensslCommandVerifiesAReceiptAndRefusesATamperedOneOrAWrongKey() throws Exception {
        assumeTrue(opensslAvailable(), "openssl is not installed here; the README's command is not run");
        assertThat(Files.readString(Path.of("..", "README.md")))
                .as("README.md documents the tested command")
                .contains(VERIFY_COMMAND);
        Issued issued = completedRun();
        Files.write(dir.resolve("receipt.json"), issued.body());
        Files.writeString(dir.resolve("receipt.json.sig"), issued.signature());

        assertThat(runVerifyCommand(signingKey)).isEqualTo("valid");
        assertThat(runVerifyCommand(signingKey + "-other")).isEqualTo("INVALID");
        String text = new String(issued.body(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("receipt.json"), text.replaceFirst("\"deleted\":10,", "\"deleted\":9,"));
        assertThat(runVerifyCommand(signingKey)).isEqualTo("INVALID");
    }

    @Test
    void theReceiptHoldsEveryStepAndAKeyDigestRecomputableFromTheBatchDigests() {
        Issued issued = completedRun();
        Map<String, Object> receipt = runs.find(issued.runId()).orElseThrow().receipt();

        String own = DeterministicId.sha256Hex(Stream.concat(
                        Stream.of("deleted-keys-digests-v1", "2"),
                        Stream.of(
                                        issued.batches().get(0).keysDigest(),
                                        issued.batches().get(1).keysDigest())
                                .sorted())
                .toArray(String[]::new));
        assertThat(value(receipt, "deletedKeys.dataset.sha256")).isEqualTo(own);
        assertThat(number(receipt, "deletedKeys.dataset.batches")).isEqualTo(2);
        String cache = DeterministicId.sha256Hex(
                "deleted-keys-digests-v1", "1", issued.batches().get(2).keysDigest());
        assertThat(value(receipt, "deletedKeys.copies.cache.sha256")).isEqualTo(cache);
        assertThat(number(receipt, "deletedKeys.copies.search.batches")).isEqualTo(1);

        assertThat(receipt)
                .containsEntry("runId", issued.runId())
                .containsEntry("outcome", "COMPLETED")
                .containsEntry("triggeredBy", "operator")
                .containsEntry("approvedBy", "operator2");
        assertThat(number(receipt, "spec.revision")).isEqualTo(1);
        assertThat((String) value(receipt, "spec.sha256")).hasSize(64);
        assertThat(number(receipt, "cutoff.micros")).isEqualTo(CUTOFF.micros());
        assertThat(value(receipt, "cutoff.at")).isEqualTo("2026-11-29T00:00:00Z");
        assertThat(number(receipt, "audit.rowsScanned")).isEqualTo(1000);
        assertThat(number(receipt, "validation.final")).isEqualTo(10);
        assertThat(number(receipt, "deletion.deleted")).isEqualTo(10);
        assertThat(number(receipt, "readBack.batches")).isEqualTo(4);
        assertThat(number(receipt, "readBack.rowsRemaining")).isEqualTo(1);
        assertThat(number(receipt, "copies.search.reported.stillPresent")).isEqualTo(1);
        assertThat(asMap(value(receipt, "timings.states")))
                .containsKeys(
                        "PENDING",
                        "AUDITING",
                        "VALIDATING",
                        "AWAITING_APPROVAL",
                        "AUTHORIZED",
                        "DELETING",
                        "VERIFYING");
        assertThat(number(receipt, "timings.states.DELETING.durationMillis")).isNotNegative();
        assertThat(number(receipt, "timings.totalMillis"))
                .isGreaterThanOrEqualTo(number(receipt, "timings.states.DELETING.durationMillis"));
    }

    record Issued(String runId, byte[] body, String signature, List<BatchCompleted> batches) {}

    /** A run of a dataset with copies "cache" and "search": two source batches, one batch per copy. */
    private Issued completedRun() {
        DatasetSpec spec = registerDataset(RunCopiesIT::withTwoCopies);
        String runId = runUntilDeleting(spec, 10, 2);
        List<BatchCompleted> batches = List.of(
                sourceBatch(spec, "b-1", 6, 1),
                sourceBatch(spec, "b-2", 4, 1),
                copyBatch(spec, "cache", "c-1", new BatchCounts(10, 0, 0, 0), 0),
                copyBatch(spec, "search", "s-1", new BatchCounts(9, 0, 0, 0), 1));
        batches.forEach(batch -> send(event(runId, batch)));
        awaitState(runId, RunState.COMPLETED);
        byte[] body = as("viewer")
                .get()
                .uri("/api/runs/" + runId + "/receipt")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(byte[].class)
                .getResponseBody();
        String signature = as("viewer")
                .get()
                .uri("/api/runs/" + runId + "/receipt/signature")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(String.class)
                .getResponseBody();
        return new Issued(runId, body, signature, batches);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> verify(byte[] receipt, String signature) {
        return as("viewer")
                .post()
                .uri("/api/receipts/verify")
                .contentType(MediaType.MULTIPART_FORM_DATA)
                .body(parts(receipt, signature))
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
    }

    private static MultiValueMap<String, HttpEntity<?>> parts(byte[] receipt, String signature) {
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("receipt", receipt).filename("receipt.json").contentType(MediaType.APPLICATION_JSON);
        parts.part("signature", signature.getBytes(StandardCharsets.UTF_8))
                .filename("receipt.json.sig")
                .contentType(MediaType.APPLICATION_JSON);
        return parts.build();
    }

    private RestTestClient anonymous() {
        return RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
    }

    private byte[] s3Bytes(String runId, String suffix) {
        return s3.getObjectAsBytes(
                        r -> r.bucket(LocalEngines.s3().bucket()).key(S3Layout.receiptKey(RunId.of(runId)) + suffix))
                .asByteArray();
    }

    private String runVerifyCommand(String key) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", VERIFY_COMMAND)
                .directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment().put("KEY", key);
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    private static boolean opensslAvailable() {
        try {
            Process process = new ProcessBuilder("openssl", "version")
                    .redirectErrorStream(true)
                    .start();
            process.getInputStream().readAllBytes();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
