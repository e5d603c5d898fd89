package io.erasure.controlplane.run;

import io.erasure.controlplane.refusal.Refusal;
import io.erasure.model.check.Require;
import io.erasure.model.run.RunState;
import io.erasure.support.access.CallerResolver;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Runs: trigger (also as dry-run), follow, approve or reject, cancel, and the receipt. */
@RestController
public class RunController {

    private final RunService runs;
    private final RunStore store;
    private final CallerResolver callers;

    public RunController(RunService runs, RunStore store, CallerResolver callers) {
        this.runs = runs;
        this.store = store;
        this.callers = callers;
    }

    @PostMapping("/api/datasets/{dataset}/runs")
    @ResponseStatus(HttpStatus.CREATED)
    public RunRecord trigger(@PathVariable String dataset, @RequestBody(required = false) Trigger trigger) {
        return runs.trigger(dataset, trigger != null && trigger.dryRun(), callers.current());
    }

    @GetMapping("/api/runs")
    public List<RunRecord> list(
            @RequestParam(required = false) String dataset,
            @RequestParam(required = false) String state,
            @RequestParam(defaultValue = "50") int limit) {
        return store.list(dataset, state == null ? null : parseState(state), limit);
    }

    @GetMapping("/api/runs/{id}")
    public RunRecord get(@PathVariable String id) {
        return runs.require(id);
    }

    /**
     * The receipt exactly as issued and signed: save it as it comes ({@code curl -o receipt.json}); any
     * change to its bytes, even whitespace, breaks the signature.
     */
    @GetMapping("/api/runs/{id}/receipt")
    public ResponseEntity<byte[]> receipt(@PathVariable String id) {
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .body(stored(id).body());
    }

    /** The receipt's signature document: {@code {"alg":"HmacSHA256","keyId":...,"signature":<hex>}}. */
    @GetMapping("/api/runs/{id}/receipt/signature")
    public ResponseEntity<byte[]> receiptSignature(@PathVariable String id) {
        StoredReceipt receipt = stored(id);
        if (receipt.signature() == null) {
            throw Refusal.notFound(
                    "a signature for the receipt of run " + id + " (it was issued before receipts" + " were signed)");
        }
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .body(receipt.signature().getBytes(StandardCharsets.UTF_8));
    }

    private StoredReceipt stored(String id) {
        RunRecord run = runs.require(id);
        return store.storedReceipt(id)
                .orElseThrow(() -> Refusal.notFound("a receipt for run " + id + " (it is " + run.state()
                        + "; receipts are issued when a run's deletions are over, or its dry-run)"));
    }

    @PostMapping("/api/runs/{id}/approve")
    public RunRecord approve(@PathVariable String id) {
        return runs.approve(id, callers.current());
    }

    @PostMapping("/api/runs/{id}/reject")
    public RunRecord reject(@PathVariable String id, @RequestBody(required = false) Decision decision) {
        return runs.reject(id, callers.current(), decision == null ? null : decision.reason());
    }

    @PostMapping("/api/runs/{id}/cancel")
    public RunRecord cancel(@PathVariable String id, @RequestBody(required = false) Decision decision) {
        return runs.cancel(id, callers.current(), decision == null ? null : decision.reason());
    }

    private static RunState parseState(String state) {
        try {
            return RunState.valueOf(state.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest(
                    "state " + Require.echo(state) + " is unknown; use one of " + List.of(RunState.values()));
        }
    }

    public record Trigger(boolean dryRun) {}

    public record Decision(String reason) {}
}
