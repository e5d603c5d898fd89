package io.erasure.model.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.model.run.RunId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadValidationTest {

    @Test
    void validationCountsMustAddUp() {
        assertThatThrownBy(() -> new ValidationCompleted(
                        "orders", 120, 100, Map.of("newer_than_cutoff", 15L), "runs/run-1/final/", 1, false))
                .hasMessageStartingWith("finalCount (100) + droppedByReason (15) must equal candidateCount (120)");
        assertThatThrownBy(() -> new ValidationCompleted("orders", 10, 10, Map.of(), "runs/run-1/final/", 0, false))
                .hasMessage("taskCount must be > 0 when the final set is not empty");
    }

    @Test
    void readBackMustAgreeWithWhatIsStillPresent() {
        assertThatThrownBy(() -> new BatchCompleted(
                        "orders", "task-1", "task-1-b0", null, new BatchCounts(1, 0, 0, 0), ReadBackResult.CLEAN, 1))
                .hasMessageContaining("readBack CLEAN does not agree with stillPresent=1");
        assertThat(new BatchCounts(97, 2, 1, 0).total()).isEqualTo(100);
        assertThatThrownBy(() -> new BatchCounts(-1, 0, 0, 0)).hasMessage("deleted must be >= 0, got -1");
    }

    @Test
    void aLookupIsResolvedByAnEventOfItsOwnAndAnOlderBatchOfZerosReadsAsOne() {
        LookupResolution found = new LookupResolution(List.of("task-3"), 4, null);
        assertThatThrownBy(() -> new LookupResolved("orders", "task-2", "task-2-b0", null, found))
                .as("lookups exist only in forward deletion")
                .hasMessageContaining("requestId");
        assertThatThrownBy(() -> new LookupResolved("orders", "task-2", "task-2-b0", "req-1", null))
                .hasMessageContaining("resolution");

        BatchCompleted older = new BatchCompleted(
                "orders",
                "task-2",
                "task-2-b0",
                "req-1",
                new BatchCounts(0, 0, 0, 0),
                ReadBackResult.CLEAN,
                0,
                null,
                0,
                null,
                List.of(),
                found);
        assertThat(older.asLookupResolved())
                .isEqualTo(new LookupResolved("orders", "task-2", "task-2-b0", "req-1", found));
        assertThat(new BatchCompleted(
                                "orders",
                                "task-1",
                                "task-1-b0",
                                "req-1",
                                new BatchCounts(1, 0, 0, 0),
                                ReadBackResult.CLEAN,
                                0)
                        .asLookupResolved())
                .as("a batch that ran")
                .isNull();
    }

    @Test
    void auditRequestMustCarryTheSourceTheSpecNames() {
        IdentifierSource other = new IdentifierSource(
                "accounts-src",
                StoreKind.POSTGRES,
                "pg-main",
                "public",
                "accounts",
                "account_id",
                "deleted_at",
                S3Layout.defaultBackupLocation("accounts-src", BackupFormat.CSV),
                Duration.ZERO);
        assertThatThrownBy(() -> new AuditRequested(Fixtures.orders(), other, false))
                .hasMessageContaining("identifierSource 'accounts-src' is not the source 'customers'");
    }

    @Test
    void controlSignalScopeIsGlobalOrADataset() {
        assertThat(ControlSignal.global(true, "oncall", "incident").globalScope())
                .isTrue();
        ControlSignal dataset =
                ControlSignal.dataset("orders", false, List.of(RunId.of("run-7")), "alice", "cancel run-7");
        assertThat(dataset.globalScope()).isFalse();
        assertThat(dataset.cancels(RunId.of("run-7"))).isTrue();
        assertThat(dataset.cancels(RunId.of("run-8"))).isFalse();
        assertThatThrownBy(() -> new ControlSignal("Orders!", true, null, "a", "b"))
                .hasMessageStartingWith("scope must match");
        assertThatThrownBy(() -> ControlSignal.global(true, "oncall", " "))
                .hasMessageStartingWith("reason is required");
    }

    @Test
    void auditUnitIndexIsWithinThePartCount() {
        assertThatThrownBy(() -> new AuditUnit(Fixtures.orders(), "m", "p", 8, 8, "i", Fixtures.CUTOFF))
                .hasMessage("partIndex must be between 0 and 7, got 8");
    }

    @Test
    void forwardRequestNeedsAPositiveVersion() {
        assertThatThrownBy(() -> new ForwardDeletionRequested("customers", "42", 0, Fixtures.T0, null, "crm"))
                .hasMessage("version must be > 0, got 0");
    }
}
